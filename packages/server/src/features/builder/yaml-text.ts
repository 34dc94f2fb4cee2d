import { parseDocument } from 'yaml';
import { badRequest } from '../../infra/errors/api-error.js';

// YAML as the builder accepts it: one document, no duplicate keys, few aliases (an alias bomb is
// refused, not expanded).
export const parseYaml = (text: string, fileName: string): unknown => {
  const document = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  const [error] = document.errors;
  if (error) {
    const line = error.linePos?.[0]?.line;
    const message = error.message.split('\n')[0] ?? 'unreadable';
    throw badRequest(
      `${fileName} is not valid YAML${line === undefined ? '' : ` (line ${line})`}: ${message}`,
    );
  }
  try {
    return document.toJS({ maxAliasCount: 100 });
  } catch {
    throw badRequest(`${fileName} is not valid YAML: too many aliases`);
  }
};
