import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

// Headers across the device URL proxy. Hop-by-hop headers stay on their hop (RFC 9110 section 7.6.1);
// the device learns where the request came from through X-Forwarded-*.

const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

// Names listed in Connection are hop-by-hop too.
const connectionListed = (headers: IncomingHttpHeaders): Set<string> =>
  new Set(
    (headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name.length > 0),
  );

const endToEnd = (headers: IncomingHttpHeaders): [string, string | string[]][] => {
  const listed = connectionListed(headers);
  return Object.entries(headers).flatMap(([name, value]) =>
    value === undefined || hopByHop.has(name) || listed.has(name) ? [] : [[name, value]],
  );
};

export const forwardedRequestHeaders = (
  headers: IncomingHttpHeaders,
  client: { address: string | undefined; encrypted: boolean },
  upgrade: string | undefined,
): OutgoingHttpHeaders => {
  const forwarded: OutgoingHttpHeaders = Object.fromEntries(endToEnd(headers));
  const previous = headers['x-forwarded-for'];
  const chain = [previous, client.address].filter((part) => part !== undefined && part !== '');
  if (chain.length > 0) forwarded['x-forwarded-for'] = chain.join(', ');
  forwarded['x-forwarded-host'] = headers.host ?? '';
  forwarded['x-forwarded-proto'] = client.encrypted ? 'https' : 'http';
  // Each request has its own tunnel, closed after the answer.
  forwarded.connection = upgrade === undefined ? 'close' : 'upgrade';
  if (upgrade !== undefined) forwarded.upgrade = upgrade;
  return forwarded;
};

// A cookie the device sets stays on the device's own host: a Domain attribute could otherwise
// reach the console's host or another device's (`Domain=<base>` covers every device URL).
export const hostOnlyCookie = (cookie: string): string =>
  cookie
    .split(';')
    .filter((attribute) => !/^\s*domain\s*=/i.test(attribute))
    .join(';');

export const returnedResponseHeaders = (headers: IncomingHttpHeaders): OutgoingHttpHeaders => {
  const returned: OutgoingHttpHeaders = Object.fromEntries(endToEnd(headers));
  const cookies = headers['set-cookie'];
  if (cookies !== undefined) returned['set-cookie'] = cookies.map(hostOnlyCookie);
  return returned;
};

// The same, as raw lines for a response written straight to a socket (upgrades).
export const rawHeaderLines = (headers: OutgoingHttpHeaders): string =>
  Object.entries(headers)
    .flatMap(([name, value]) =>
      value === undefined ? [] : [value].flat().map((one) => `${name}: ${String(one)}\r\n`),
    )
    .join('');
