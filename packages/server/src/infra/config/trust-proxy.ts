import ipaddr from 'ipaddr.js';

// Which proxies in front of the server are trusted to report the client address in
// X-Forwarded-For (Fastify's trustProxy): false = none (the socket's peer is the client), a hop
// count, or the proxies' addresses and CIDR ranges. "Trust every proxy" is deliberately not
// offered: the left-most X-Forwarded-For entry is whatever the client sent, so rate limits per
// client address could be dodged by sending a new one with every request.
export type TrustProxy = false | number | string[];

// proxy-addr's names for well-known ranges.
const rangeNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

const isProxyAddress = (entry: string): boolean =>
  rangeNames.has(entry) || ipaddr.isValid(entry) || ipaddr.isValidCIDR(entry);

export const trustProxyProblem =
  'must be off, the number of proxies in front of the server (e.g. 1), or a comma-separated list of their addresses or CIDR ranges';

// Parses FLOTILLA_TRUST_PROXY; undefined when the value is not one of the accepted forms.
export const parseTrustProxy = (value: string | undefined): TrustProxy | undefined => {
  const text = (value ?? '').trim();
  if (text === '' || text === 'off' || text === '0') return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= 10 ? hops : undefined;
  }
  const entries = text.split(',').map((entry) => entry.trim());
  return entries.every(isProxyAddress) ? entries : undefined;
};

// Fastify's option: a hop count becomes the function Fastify itself would make of it (its types
// only take strings, booleans and functions). Hop 0 is the socket's peer.
export const fastifyTrustProxy = (
  trust: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) =>
  typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
