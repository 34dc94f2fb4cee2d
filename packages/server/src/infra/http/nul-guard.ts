// PostgreSQL text cannot hold NUL (U+0000): a NUL reaching a query is an error there, so requests
// carrying one are refused at the edge with a 400 in our words (docs/API-LIMITS.md).

export const nulInUrlMessage = 'The URL contains a NUL character (%00), which is not accepted';
export const nulInHeaderMessage =
  'A request header contains a NUL character, which is not accepted';
export const nulInBodyMessage =
  'The request body contains a NUL character (\\u0000), which is not accepted';

// The raw URL, still percent-encoded: %00 anywhere (path, parameters, query) or a literal NUL.
export const urlHasNul = (url: string): boolean => url.includes('\u0000') || /%00/i.test(url);

// A plain loop, nothing allocated: every request passes here (the polls answered from memory too).
export const headersHaveNul = (headers: Record<string, string | string[] | undefined>): boolean => {
  for (const name in headers) {
    const value = headers[name];
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (value !== undefined) {
      for (const item of value) if (item.includes('\u0000')) return true;
    }
  }
  return false;
};

// Any string (value or key) anywhere in a parsed JSON value.
export const jsonHasNul = (value: unknown): boolean => {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(jsonHasNul);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).some(([key, item]) => key.includes('\u0000') || jsonHasNul(item));
  }
  return false;
};

// JSON text can only spell NUL as the escape \u0000, so most bodies skip the walk.
export const jsonTextMayHaveNul = (text: string): boolean => text.includes('\\u0000');
