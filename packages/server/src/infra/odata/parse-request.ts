import odataParser from '@balena/odata-parser';
import type { BindReference, ODataBinds, ODataOptions } from '@balena/odata-parser';
import { badRequest } from '../errors/api-error.js';
import { checkQueryLimits } from './query-limits.js';

export type KeyReference = BindReference | Record<string, BindReference>;

export type ODataRequest = {
  resource: string;
  key: KeyReference | undefined;
  count: boolean;
  // POST /v7/<resource>(<id>)/<action>
  action: string | undefined;
  options: ODataOptions;
  binds: ODataBinds;
};

const isDirection = (item: string): boolean => /(?:%20|\s|\+)(?:asc|desc)$/i.test(item.trimEnd());

// The parser lets an $orderby item without a direction inherit the previous item's; OData says
// it sorts ascending, so every bare item gets an explicit " asc" before parsing.
export const withExplicitOrderDirections = (query: string): string => {
  const marker = '$orderby=';
  let out = '';
  let index = 0;
  while (index < query.length) {
    const found = query.indexOf(marker, index);
    if (found === -1) {
      out += query.slice(index);
      break;
    }
    const start = found + marker.length;
    out += query.slice(index, start);
    let depth = 0;
    let inQuote = false;
    let end = start;
    const items: string[] = [];
    let itemStart = start;
    for (; end < query.length; end++) {
      const char = query[end];
      if (char === "'" || query.startsWith('%27', end)) {
        inQuote = !inQuote;
        if (char !== "'") end += 2;
        continue;
      }
      if (inQuote) continue;
      if (char === '(') depth++;
      else if (char === ')') {
        if (depth === 0) break;
        depth--;
      } else if (depth === 0 && (char === '&' || char === ';')) break;
      else if (depth === 0 && char === ',') {
        items.push(query.slice(itemStart, end));
        itemStart = end + 1;
      }
    }
    items.push(query.slice(itemStart, end));
    out += items.map((item) => (isDirection(item) ? item : `${item}%20asc`)).join(',');
    index = end;
  }
  return out;
};

const parserMessage = (error: unknown): string =>
  error instanceof Error ? error.message.replace(/\s+/g, ' ').slice(0, 300) : 'unparseable';

// The part of a /v7 URL after the prefix as the parser reads it (explicit $orderby directions).
export const normalizeODataPath = (pathAndQuery: string): string => {
  const queryStart = pathAndQuery.indexOf('?');
  if (queryStart === -1) return pathAndQuery;
  const query = pathAndQuery.slice(queryStart + 1);
  return query
    ? `${pathAndQuery.slice(0, queryStart)}?${withExplicitOrderDirections(query)}`
    : pathAndQuery.slice(0, queryStart);
};

// Parses the part of a /v7 URL after the prefix, e.g. `/device(uuid='x')?$select=id`, and
// refuses requests over the documented limits (query-limits.ts) before anything is compiled.
export const parseODataRequest = (pathAndQuery: string): ODataRequest => {
  const url = normalizeODataPath(pathAndQuery);
  let parsed: ReturnType<typeof odataParser.parse>;
  try {
    parsed = odataParser.parse(url);
  } catch (error) {
    throw badRequest(`Malformed OData request: ${parserMessage(error)}`);
  }
  const tree = parsed.tree;
  if (typeof tree.resource !== 'string') throw badRequest('Malformed OData request: no resource');
  const property: unknown = tree.property;
  let action: string | undefined;
  if (property !== undefined) {
    if (
      typeof property === 'object' &&
      property !== null &&
      'resource' in property &&
      typeof property.resource === 'string'
    ) {
      action = property.resource;
    } else {
      throw badRequest('Unsupported OData path');
    }
  }
  if (tree.link !== undefined) throw badRequest('OData $links are not supported');
  const options = tree.options ?? {};
  checkQueryLimits(options);
  return {
    resource: tree.resource,
    key: tree.key,
    count: tree.count === true,
    action,
    options,
    binds: parsed.binds,
  };
};
