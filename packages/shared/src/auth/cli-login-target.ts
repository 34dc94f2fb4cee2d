import { inNetwork, type IpNetwork, parseIpAddress, parseIpNetwork } from '../net/ip-networks.js';

// `balena login --web` (balena-cli 25, build/auth/index.js and server.js) starts an HTTP server on
// 127.0.0.1 with a random port and opens `<dashboard>/login/cli/<callback>`, the callback
// `http://127.0.0.1:<port>/auth` encoded twice (encodeURIComponent, then every % as %25). The
// page posts the session token there as a form field `token` (urlencoded); the CLI answers 200 or
// 401 with a page of its own. The target must be this computer or a private network (below), so
// a link cannot make the console hand a session token to a server on the internet.

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

// Where the CLI may wait by default: loopback (balena-cli listens on 127.0.0.1) and the private
// ranges (a CLI on another machine of the same network). Link-local addresses are not among them:
// browsers cannot name an IPv6 one with its zone, and 169.254.169.254 is cloud metadata.
export const defaultCliLoginNetworks = [
  '127.0.0.0/8',
  '::1/128',
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  'fc00::/7',
] as const;

const defaultNetworks: readonly IpNetwork[] = defaultCliLoginNetworks.flatMap((text) => {
  const network = parseIpNetwork(text);
  return network === undefined ? [] : [network];
});

const allowedAddress = (host: string, extraNetworks: readonly string[]): boolean => {
  const address = parseIpAddress(host);
  if (address === undefined) return false;
  const extra = extraNetworks.flatMap((text) => {
    const network = parseIpNetwork(text);
    return network === undefined ? [] : [network];
  });
  return [...defaultNetworks, ...extra].some((network) => inNetwork(address, network));
};

// The callback a /login/cli/<callback> path names, if the console may post a token to it.
// `allowedNetworks` are the operator's additions (FLOTILLA_CLI_LOGIN_ALLOWED_NETWORKS, addresses
// or CIDR ranges), which the console reads from GET /config.
export const cliLoginTarget = (
  encoded: string,
  allowedNetworks: readonly string[] = [],
): CliLoginTarget => {
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
  if (url.hostname !== 'localhost' && !allowedAddress(url.hostname, allowedNetworks)) {
    return {
      ok: false,
      reason: `The command-line tool can only be authorized on this computer (localhost) or a private network address, not ${url.hostname}. The operator can allow more networks with FLOTILLA_CLI_LOGIN_ALLOWED_NETWORKS.`,
    };
  }
  return { ok: true, url: url.href, origin: url.origin };
};

// The path the CLI opens for a callback (as balena-cli 25 builds it), for tests and links.
export const cliLoginPath = (callbackUrl: string): string =>
  `/login/cli/${encodeURIComponent(callbackUrl).replace(/%/g, '%25')}`;
