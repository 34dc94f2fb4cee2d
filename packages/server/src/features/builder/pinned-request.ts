import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { ApiError } from '../../infra/errors/api-error.js';
import { type AllowedNetworks, addressRefusal } from './url-address-policy.js';

// Outgoing requests to URLs users give (builds from URLs, code-host lookups): every address the
// host resolves to must be allowed (a host answering with a public and a private address is
// refused), and the request goes to the checked address itself, so a second DNS answer (a
// rebind) is never asked for.

// Every address a host name resolves to (one DNS answer, used once).
export type ResolveHost = (hostname: string) => Promise<readonly string[]>;

export type AddressCheck = { allowed: AllowedNetworks; resolve: ResolveHost };

// What each caller says when a URL cannot be reached, in its own words.
export type AddressMessages = {
  protocol: (protocol: string) => ApiError;
  unresolved: (host: string) => ApiError;
  noAddress: (host: string) => ApiError;
  refused: (url: URL, address: string, refusal: string) => ApiError;
};

export const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

export const checkedAddress = async (
  url: URL,
  check: AddressCheck,
  messages: AddressMessages,
): Promise<string> => {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw messages.protocol(url.protocol);
  }
  const host = bareHost(url);
  let addresses: readonly string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = await check.resolve(host);
    } catch {
      throw messages.unresolved(host);
    }
  }
  const [first] = addresses;
  if (first === undefined) throw messages.noAddress(host);
  for (const address of addresses) {
    const refusal = addressRefusal(address, check.allowed);
    if (refusal !== null) throw messages.refused(url, address, refusal);
  }
  return first;
};

// A GET of `url` sent to `address` (from checkedAddress), with the URL's host for the Host header
// and the TLS certificate check.
export const sendPinned = (
  url: URL,
  address: string,
  signal: AbortSignal,
  userAgent: string,
): Promise<IncomingMessage> =>
  new Promise((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const host = bareHost(url);
    const request = (secure ? httpsRequest : httpRequest)(
      {
        host: address,
        port: Number(url.port) || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers: { host: url.host, 'user-agent': userAgent, accept: '*/*' },
        ...(url.username === '' ? {} : { auth: `${url.username}:${url.password}` }),
        // The certificate is checked against the URL's host, not the address connected to.
        ...(secure && isIP(host) === 0 ? { servername: host } : {}),
        agent: false,
        signal,
      },
      resolve,
    );
    request.on('error', reject);
    request.end();
  });
