import type { FastifyRequest } from 'fastify';

export const redacted = '[redacted]';

// Query parameters holding credentials: ?apikey= (balena's legacy API key parameter), tokens of
// every kind, one-time codes (OAuth, SAML callbacks), passwords and signatures.
const secretParameter = /key|token|secret|password|passwd|code|jwt|signature|session/i;

// Paths whose segments are secrets: invitation tokens (API and console deep links), password
// reset codes and e-mail verification links (token and e-mail address).
const secretPaths: readonly (readonly string[])[] = [
  ['user', 'v1', 'invitation', '*'],
  ['org', 'v1', 'invitation', '*'],
  ['organization', 'invitation', '*'],
  ['invitation', '*'],
  ['user', 'reset-password', '*'],
  ['user', 'verify-email', '*', '*'],
];

const decoded = (text: string): string => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
};

const redactPath = (path: string): string => {
  const segments = path.split('/');
  // segments[0] is the empty string before the leading slash.
  for (const pattern of secretPaths) {
    if (segments.length < pattern.length + 1) continue;
    const matches = pattern.every(
      (part, index) => part === '*' || segments[index + 1]?.toLowerCase() === part,
    );
    if (!matches) continue;
    return segments
      .map((segment, index) =>
        index > 0 && pattern[index - 1] === '*' && segment !== '' ? redacted : segment,
      )
      .join('/');
  }
  return path;
};

// The URL as logged: secret query values and secret path segments replaced, the rest untouched
// (still percent-encoded as sent) so a logged request stays recognisable.
export const redactUrl = (url: string): string => {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  if (queryStart === -1) return redactPath(path);
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return equals !== -1 && secretParameter.test(decoded(name)) ? `${name}=${redacted}` : pair;
    })
    .join('&');
  return `${redactPath(path)}?${query}`;
};

// What a request log line says about the request (Fastify's default fields, URL redacted).
// Headers are not logged; if some code logs them, `redact` below censors the credentials.
const serializeRequest = (request: FastifyRequest) => ({
  method: request.method,
  url: redactUrl(request.url),
  host: request.host,
  remoteAddress: request.ip,
  remotePort: request.socket.remotePort,
});

// Logger options that keep credentials out of the logs.
export const redactingLoggerOptions = {
  serializers: { req: serializeRequest },
  redact: {
    paths: [
      'headers.authorization',
      'headers.cookie',
      'headers["set-cookie"]',
      '*.headers.authorization',
      '*.headers.cookie',
      '*.headers["set-cookie"]',
      '*.authorization',
      'authorization',
    ],
    censor: redacted,
  },
};
