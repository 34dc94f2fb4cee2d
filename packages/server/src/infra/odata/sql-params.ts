import type { Actor } from '../auth/actor.js';
import type { SqlValue } from '../db/database.js';

// One literal of a URL as the OData parser binds it, e.g. ['Text', 'x'] or ['List', [...]].
export type LiteralBind = readonly [type: string, value: unknown];

// What the values of a statement come from: the URL's literals (the parser's binds, or the same
// built by request-shape.ts; none for statements not compiled from a URL) and the caller.
export type RequestValues = { binds: readonly LiteralBind[]; actor: Actor };

// One value of a statement, computed from a request. A compiled statement reused for another
// request of the same shape (statement-cache.ts) computes its values again with these.
export type ParamSource = (request: RequestValues) => SqlValue;

// Collects the values of one SQL statement; only placeholders are ever written into SQL text.
export type SqlParams = {
  readonly request: RequestValues;
  // A value of this request alone (a write's body): a statement holding one is never reused.
  add(value: SqlValue): string;
  // A value that every request of the same shape has (the roles granting an action).
  fixed(value: SqlValue): string;
  // A value read from the request: a literal of the URL, the caller's id.
  read(source: ParamSource): string;
  values(): SqlValue[];
  // How to compute every value for another request, or undefined after an add().
  sources(): readonly ParamSource[] | undefined;
};

export const createSqlParams = (actor: Actor, binds: readonly LiteralBind[] = []): SqlParams => {
  const request: RequestValues = { binds, actor };
  const list: SqlValue[] = [];
  const sources: ParamSource[] = [];
  let replayable = true;
  const push = (value: SqlValue, source: ParamSource): string => {
    list.push(value);
    sources.push(source);
    return `$${list.length}`;
  };
  return {
    request,
    add(value) {
      replayable = false;
      return push(value, () => value);
    },
    fixed: (value) => push(value, () => value),
    read: (source) => push(source(request), source),
    values: () => list,
    sources: () => (replayable ? sources : undefined),
  };
};

export const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;
