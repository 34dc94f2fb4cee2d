// Which browser origins may call the API from another origin (FLOTILLA_CORS_ORIGINS).
// 'any': every origin, without credentials (a bearer token in a header needs none).
// 'list': only these origins are echoed back, and they may send credentials.
export type CorsOrigins = { kind: 'any' } | { kind: 'list'; origins: readonly string[] };

// `*` (or empty) or a comma-separated list of origins such as
// `https://console.example.com,http://localhost:5173`. Returns a message for a bad value.
export const parseCorsOrigins = (raw: string): CorsOrigins | string => {
  const parts = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length === 0 || (parts.length === 1 && parts[0] === '*')) return { kind: 'any' };
  const origins: string[] = [];
  for (const part of parts) {
    if (part === '*') return '`*` cannot be combined with a list of origins';
    let url: URL;
    try {
      url = new URL(part);
    } catch {
      return `"${part}" is not an origin such as https://console.example.com`;
    }
    // An origin is scheme, host and port only: a path, query or credentials would never match.
    const originOnly =
      url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
    if (!/^https?:$/.test(url.protocol) || !originOnly) {
      return `"${part}" is not an origin such as https://console.example.com (no path)`;
    }
    origins.push(url.origin);
  }
  return { kind: 'list', origins };
};
