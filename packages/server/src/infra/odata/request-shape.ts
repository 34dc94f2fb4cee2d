import type { LiteralBind } from './sql-params.js';

// A /v7 URL with its literals lifted out: what is left (the shape) keys compiled statements
// (statement-cache.ts), and the literals become the statement's values, bound exactly as
// @balena/odata-parser binds them, so a request of a known shape is answered without parsing.
//
// The scanner follows the parser's grammar for literals: 'text' (quotes doubled inside, %27 for a
// quote), numbers (optional minus, digits, optional fraction), true/false, datetime'...' and
// date'...', and `in (...)` lists. Whatever it does not fully understand (parameter aliases,
// durations, quotes inside names, a literal glued to a name) makes the URL unshaped: it is then
// parsed and compiled on every request, as without the cache. The cache checks its reading against
// the parser's before it keeps a shape (statement-cache.ts).

// The literal's class: what about it the compiled SQL may depend on (statement-cache.ts): text,
// whole number, other number, $top/$skip count, boolean, datetime, date, or a list of these.
export type Literal = { kind: string; bind: LiteralBind; items?: readonly Literal[] };

// A literal of the URL and its text there.
export type UrlLiteral = Literal & { text: string };

export type RequestShape = {
  // The URL with every literal replaced by a marker naming its class.
  key: string;
  // The URL's text between literals (one more than there are literals).
  parts: readonly string[];
  literals: readonly UrlLiteral[];
};

const marker = (kind: string): string => `\u0000${kind}\u0000`;

const isDigit = (char: string | undefined): boolean =>
  char !== undefined && char >= '0' && char <= '9';

// The parser's ResourceName characters; a quote is one too, but never in a name we accept.
const isNameChar = (char: string | undefined): boolean =>
  char !== undefined && !":/?#[]@!$*&()+,;= %'".includes(char);

const spaceAt = (url: string, at: number): number =>
  url[at] === ' ' || url[at] === '+' ? 1 : url.startsWith('%20', at) ? 3 : 0;

const quoteAt = (url: string, at: number): number =>
  url[at] === "'" ? 1 : url.startsWith('%27', at) ? 3 : 0;

const skipSpaces = (url: string, at: number): number => {
  let next = at;
  for (let step = spaceAt(url, next); step > 0; step = spaceAt(url, next)) next += step;
  return next;
};

type Read = { literal: Literal; end: number };

// 'text' from its opening quote: a doubled quote is one quote; the text is percent-decoded.
const readQuoted = (url: string, at: number): { text: string; end: number } | undefined => {
  let next = at + quoteAt(url, at);
  let raw = '';
  for (;;) {
    if (next >= url.length) return undefined;
    const quote = quoteAt(url, next);
    if (quote > 0) {
      const second = quoteAt(url, next + quote);
      if (second === 0) return decoded(raw, next + quote);
      raw += "'";
      next += quote + second;
    } else {
      raw += url[next];
      next += 1;
    }
  }
};

const decoded = (raw: string, end: number): { text: string; end: number } | undefined => {
  try {
    return { text: decodeURIComponent(raw), end };
  } catch {
    return undefined;
  }
};

const readText = (url: string, at: number): Read | undefined => {
  const quoted = readQuoted(url, at);
  return quoted && { literal: { kind: 't', bind: ['Text', quoted.text] }, end: quoted.end };
};

// A number ends where a name could not go on (`5a` and `1.` are not numbers to the parser).
const readNumber = (url: string, at: number, count: boolean): Read | undefined => {
  let end = url[at] === '-' ? at + 1 : at;
  while (isDigit(url[end])) end++;
  if (url[end] === '.' && isDigit(url[end + 1])) {
    end++;
    while (isDigit(url[end])) end++;
  }
  if (isNameChar(url[end]) || quoteAt(url, end) > 0) return undefined;
  const text = url.slice(at, end);
  if (count) {
    const value = Number.parseInt(text, 10);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(value)) return undefined;
    return { literal: { kind: 'i', bind: ['Integer', value] }, end };
  }
  const value = Number(text);
  return {
    literal: { kind: Number.isSafeInteger(value) ? 'n' : 'r', bind: ['Real', value] },
    end,
  };
};

const readName = (url: string, at: number): number => {
  let end = at;
  while (isNameChar(url[end])) end++;
  return end;
};

// datetime'...' or date'...' from the start of the name.
const readDate = (url: string, at: number, name: string): Read | undefined => {
  const quoted = readQuoted(url, at + name.length);
  if (!quoted) return undefined;
  const value = Date.parse(quoted.text);
  // The parser reads an invalid date as something else altogether.
  if (Number.isNaN(value)) return undefined;
  const dateTime = name === 'datetime';
  return {
    literal: { kind: dateTime ? 'D' : 'd', bind: [dateTime ? 'Date Time' : 'Date', value] },
    end: quoted.end,
  };
};

// One literal where a value may start, or undefined (a name, or something we do not read).
const readValue = (
  url: string,
  at: number,
  afterEquals: boolean,
  count: boolean,
): Read | undefined => {
  if (quoteAt(url, at) > 0) return readText(url, at);
  if (isDigit(url[at]) || (url[at] === '-' && isDigit(url[at + 1]))) {
    return readNumber(url, at, count);
  }
  const end = readName(url, at);
  const name = url.slice(at, end);
  if (quoteAt(url, end) > 0 && (name === 'datetime' || name === 'date')) {
    return readDate(url, at, name);
  }
  // `$count=true` is an option, not a bound literal.
  if ((name === 'true' || name === 'false') && !afterEquals && !isNameChar(url[end])) {
    return { literal: { kind: 'b', bind: ['Boolean', name === 'true'] }, end };
  }
  return undefined;
};

// `in (a, b, ...)` after its opening parenthesis: one list literal, as the parser binds it.
const readList = (url: string, open: number): Read | undefined => {
  const items: Literal[] = [];
  let at = skipSpaces(url, open + 1);
  for (;;) {
    const item = readValue(url, at, false, false);
    if (!item) return undefined;
    items.push(item.literal);
    if (url[item.end] === ',') {
      at = skipSpaces(url, item.end + 1);
      continue;
    }
    at = skipSpaces(url, item.end);
    if (url[at] !== ')') return undefined;
    break;
  }
  const kinds = items.map((item) => item.kind);
  const uniform = kinds.every((kind) => kind === kinds[0]);
  // Lists of only whole numbers or only texts are one array value, whatever their length.
  const kind = uniform && (kinds[0] === 'n' || kinds[0] === 't') ? `${kinds[0]}*` : kinds.join(',');
  return {
    literal: { kind: `L[${kind}]`, bind: ['List', items.map((item) => item.bind)], items },
    end: at + 1,
  };
};

// The shape of the part of a /v7 URL after the prefix, or undefined when it is not one we read.
export const requestShape = (url: string): RequestShape | undefined => {
  const parts: string[] = [];
  const literals: UrlLiteral[] = [];
  let part = '';
  let at = 0;
  // Whether a value may start here, and what came just before it.
  let valueMayStart = false;
  let previous = '';
  const lift = (read: Read): void => {
    parts.push(part);
    literals.push({ ...read.literal, text: url.slice(at, read.end) });
    part = '';
    at = read.end;
    valueMayStart = false;
    previous = '';
  };
  while (at < url.length) {
    const char = url[at] ?? '';
    // Parameter aliases are bound by name; NUL never reaches here (create-app.ts refuses it).
    if (char === '@' || char === '\u0000') return undefined;
    const space = spaceAt(url, at);
    if (space > 0) {
      part += url.slice(at, at + space);
      at += space;
      valueMayStart = true;
      previous = ' ';
      continue;
    }
    if (valueMayStart) {
      const count = /(?:\$|%24)(?:top|skip)=$/.test(part);
      const read = readValue(url, at, previous === '=', count);
      if (read) {
        lift(read);
        continue;
      }
      // Something like a literal that we could not read.
      if (isDigit(char) || (char === '-' && isDigit(url[at + 1]))) return undefined;
    }
    // A quote where no value may start.
    if (quoteAt(url, at) > 0) return undefined;
    if (isNameChar(char)) {
      const end = readName(url, at);
      const name = url.slice(at, end);
      // A quote glued to a name (O'Brien unquoted, duration'P1D'): not ours to read.
      if (quoteAt(url, end) > 0) return undefined;
      part += name;
      at = end;
      if (name === 'in' && previous === ' ') {
        const open = skipSpaces(url, at);
        if (url[open] === '(') {
          part += url.slice(at, open);
          at = open;
          const list = readList(url, open);
          if (!list) return undefined;
          lift(list);
          continue;
        }
      }
      valueMayStart = false;
      previous = name;
      continue;
    }
    const escape = char === '%' ? url.slice(at, at + 3) : char;
    part += escape;
    at += escape.length;
    valueMayStart = '(,=:&?;'.includes(char);
    previous = char;
  }
  parts.push(part);
  return { key: keyOf(parts, literals), parts, literals };
};

const keyOf = (parts: readonly string[], literals: readonly Literal[]): string =>
  parts
    .map((part, index) => {
      const literal = literals[index];
      return literal ? part + marker(literal.kind) : part;
    })
    .join('');

// The URL of the same shape with other literal texts (statement-cache.ts checks its shapes so).
export const renderShape = (shape: RequestShape, texts: readonly string[]): string =>
  shape.parts.map((part, index) => part + (texts[index] ?? '')).join('');

const probeDate = (index: number): string =>
  new Date(Date.UTC(2001, 0, 1) + (index + 1) * 61_000).toISOString();

// A literal of the same class as `literal` with another value, as URL text; `index` makes each
// probe value distinct.
export const probeText = (literal: Literal, index: number): string => {
  switch (literal.kind) {
    case 't':
      return `'probe${index}'`;
    case 'n':
      return String(7_000_001 + index);
    case 'r':
      return `${index}.25`;
    case 'i':
      return String(3 + index);
    case 'b':
      return String(literal.bind[1] !== true);
    case 'D':
      return `datetime'${probeDate(index)}'`;
    case 'd':
      return `date'${probeDate(index)}'`;
    default:
      return `(${(literal.items ?? []).map((item, at) => probeText(item, index * 1000 + at)).join(',')})`;
  }
};
