// A release's composition as a docker-compose.yml: the server keeps it as JSON, people and tools
// expect YAML. Strings are written double-quoted (JSON's escapes are YAML's), so no value can be
// read back as another type or break the layout.

const reservedWords = /^(true|false|null|yes|no|on|off|y|n|~)$/i;

const key = (name: string): string =>
  /^[A-Za-z_][\w./-]*$/.test(name) && !reservedWords.test(name) ? name : JSON.stringify(name);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// A value written on its key's line: a scalar, or an empty list or mapping.
const inline = (value: unknown): string | undefined => {
  if (Array.isArray(value)) return value.length === 0 ? '[]' : undefined;
  if (isRecord(value)) return Object.keys(value).length === 0 ? '{}' : undefined;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return 'null';
};

const block = (value: unknown, indent: string): string[] => {
  if (Array.isArray(value)) {
    const items: unknown[] = value;
    return items.flatMap((item) => {
      const text = inline(item);
      if (text !== undefined) return [`${indent}- ${text}`];
      const [first = '', ...rest] = block(item, `${indent}  `);
      return [`${indent}- ${first.slice(indent.length + 2)}`, ...rest];
    });
  }
  const entries: [string, unknown][] = isRecord(value) ? Object.entries(value) : [];
  return entries.flatMap(([name, item]) => {
    const text = inline(item);
    return text === undefined
      ? [`${indent}${key(name)}:`, ...block(item, `${indent}  `)]
      : [`${indent}${key(name)}: ${text}`];
  });
};

export const compositionYaml = (composition: unknown): string => {
  const text = inline(composition);
  return `${text ?? block(composition, '').join('\n')}\n`;
};
