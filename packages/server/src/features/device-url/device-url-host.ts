// Which requests are for a public device URL: `<uuid>.<deviceUrlsBase>`. Host
// names are compared without their port, so `<uuid>.localhost:8080` matches a base of
// `localhost:8080` (and a proxy in front answering on 443 still matches).

const hostnameOf = (host: string): string => {
  const lower = host.trim().toLowerCase();
  // A bracketed IPv6 literal is never a device host; keep it whole.
  if (lower.startsWith('[')) return lower;
  const colon = lower.lastIndexOf(':');
  return (colon >= 0 ? lower.slice(0, colon) : lower).replace(/\.$/, '');
};

// The base in use: the configured one, or `localhost:<port>` of the running server (so that
// `npm start`'s `<uuid>.localhost:8080` works without DNS, and a server on port 0 names its
// real port).
export const deviceUrlsBaseOf = (
  configured: string | undefined,
  addresses: readonly (string | { port: number })[],
): string => {
  if (configured !== undefined) return configured;
  const first = addresses[0];
  // A pipe or socket path (a string) has no port to name.
  return first === undefined || typeof first === 'string' ? 'localhost' : `localhost:${first.port}`;
};

// A device uuid as the agent generates it (32 or 62 lowercase hex digits; balena accepts both).
const deviceUuid = /^(?:[0-9a-f]{32}|[0-9a-f]{62})$/;

export type DeviceUrlHost =
  // Not a device host: the request belongs to the normal app.
  | { kind: 'app' }
  // Under the base, naming a uuid (which may still be unknown).
  | { kind: 'device'; uuid: string }
  // Under the base but not a uuid (a typo, a deeper name): answered with the 404 page.
  | { kind: 'unknown' };

export const deviceUrlHostMatcher = (
  base: string,
): ((host: string | undefined) => DeviceUrlHost) => {
  const suffix = `.${hostnameOf(base)}`;
  const app: DeviceUrlHost = { kind: 'app' };
  const matchName = (host: string): DeviceUrlHost => {
    const name = hostnameOf(host);
    if (!name.endsWith(suffix) || name.length === suffix.length) return app;
    const label = name.slice(0, -suffix.length);
    // balena's actions service lives beside the device URLs; this server answers it itself.
    if (label === 'actions') return app;
    return deviceUuid.test(label) ? { kind: 'device', uuid: label } : { kind: 'unknown' };
  };
  // Nearly every request names the app's own host: the last one seen is recognised without
  // lowering or slicing it (every request passes here, the device polls too).
  let lastAppHost: string | undefined;
  return (host) => {
    if (host === undefined || host === lastAppHost) return app;
    const found = matchName(host);
    if (found.kind === 'app') lastAppHost = host;
    return found;
  };
};
