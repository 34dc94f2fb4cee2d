// `balena login --web` (balena-cli 25, build/auth/index.js and server.js) starts an HTTP server on
// 127.0.0.1 with a random port and opens `<dashboard>/login/cli/<callback>`, the callback
// `http://127.0.0.1:<port>/auth` encoded twice (encodeURIComponent, then every % as %25). The
// page posts the session token there as a form field `token` (urlencoded); the CLI answers 200 or
// 401 with a page of its own. Seed 000 section 4: the target must be localhost or an IP address.

export type CliLoginTarget =
  { ok: true; url: string; origin: string } | { ok: false; reason: string };

const maxDecodes = 3;

// Decoded until it no longer changes (the route may hand over the segment decoded once or not).
const fullyDecoded = (value: string): string | undefined => {
  let current = value;
  for (let round = 0; round < maxDecodes && current.includes('%'); round += 1) {
    try {
      current = decodeURIComponent(current);
    } catch {
      return undefined;
    }
  }
  return current;
};

const isIpv4 = (host: string): boolean => {
  const parts = host.split('.');
  return parts.length === 4 && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255);
};

// The URL parser writes IPv6 literals in brackets and normalizes IPv4 shorthands (127.1).
const isIpLiteral = (host: string): boolean =>
  isIpv4(host) || (host.startsWith('[') && host.endsWith(']'));

// The callback a /login/cli/<callback> path names, if the console may post a token to it.
export const cliLoginTarget = (encoded: string): CliLoginTarget => {
  const decoded = fullyDecoded(encoded.trim());
  if (decoded === undefined || decoded === '') {
    return { ok: false, reason: 'The command-line login address is missing or malformed.' };
  }
  let url: URL;
  try {
    url = new URL(decoded);
  } catch {
    return { ok: false, reason: 'The command-line login address is not a valid URL.' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: 'The command-line login address must be an http address.' };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'The command-line login address must not carry credentials.' };
  }
  if (url.hostname !== 'localhost' && !isIpLiteral(url.hostname)) {
    return {
      ok: false,
      reason: `The command-line tool can only be authorized on localhost or an IP address, not ${url.hostname}.`,
    };
  }
  return { ok: true, url: url.href, origin: url.origin };
};

// The path the CLI opens for a callback (as balena-cli 25 builds it), for tests and links.
export const cliLoginPath = (callbackUrl: string): string =>
  `/login/cli/${encodeURIComponent(callbackUrl).replace(/%/g, '%25')}`;
