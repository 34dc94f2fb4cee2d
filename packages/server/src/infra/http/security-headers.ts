import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';

// The console's Content-Security-Policy. It holds no inline script (index.html loads one module
// from /assets, checked by console-headers.test.ts), so scripts are 'self' only.
// style-src needs 'unsafe-inline': MUI's emotion inserts <style> elements at run time. A nonce
// would need a new index.html for every response (not one per URL, as console-index.ts keeps,
// revalidated with an ETag) for little gain: injected CSS cannot run script, and scripts stay
// locked down.
// connect-src 'self' also covers ws:/wss: to the same host (CSP level 3, Chromium and Firefox).
// img-src allows data: for inline SVG/PNG data URLs; everything else the console loads is its own.
export const consoleContentSecurityPolicy = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
} as const;

// API answers (JSON, text) are never rendered as pages: nothing may load or frame them.
const apiContentSecurityPolicy = {
  'default-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'none'"],
} as const;

const policy = (directives: Record<string, readonly string[]>) => ({
  // helmet's defaults add upgrade-insecure-requests, which breaks a console served over plain
  // http on a LAN address; every directive is listed above instead.
  useDefaults: false,
  directives: Object.fromEntries(
    Object.entries(directives).map(([name, values]) => [name, [...values]]),
  ),
});

// What a page's policy allows besides the console's own. `formTargets`: origins one page may
// also post a form to (the command-line login page posts the session token to balena-cli's
// local server, features/console). `imageSources`: origins the console may also load pictures
// from (the configured map tile server and avatar service). `widgetOrigins`: the chat widget's
// server (FLOTILLA_CHATWOOT_URL), whose script, frame, pictures and connections the drawer loads.
export type PolicyAdditions = {
  formTargets?: readonly string[];
  imageSources?: readonly string[];
  widgetOrigins?: readonly string[];
};

// A websocket origin for an http(s) origin (a widget's live connection).
const websocketOf = (origin: string): string => origin.replace(/^http/, 'ws');

// The console's policy as a header value; the console route sets it over the API's policy.
// (helmet's per-route option only reaches routes declared after the plugin has loaded.)
export const consoleContentSecurityPolicyHeaderWith = (additions: PolicyAdditions = {}): string => {
  const widgets = additions.widgetOrigins ?? [];
  const extra: Record<string, readonly string[]> = {
    'form-action': additions.formTargets ?? [],
    'img-src': [...(additions.imageSources ?? []), ...widgets],
    'script-src': widgets,
    'connect-src': [...widgets, ...widgets.map(websocketOf)],
  };
  const directives = Object.entries(consoleContentSecurityPolicy).map(
    ([name, values]) => `${name} ${[...values, ...(extra[name] ?? [])].join(' ')}`,
  );
  // Frames otherwise follow default-src ('self'); a widget draws its chat in a frame of its own.
  if (widgets.length > 0) directives.push(`frame-src 'self' ${widgets.join(' ')}`);
  return directives.join('; ');
};

// The origin a Leaflet tile URL template loads from, as a CSP source: `{s}` (the subdomain
// placeholder) becomes a wildcard; undefined when the template is empty or not an http(s) URL.
export const tileImageSource = (template: string): string | undefined => {
  const match = /^(https?):\/\/([^/?#]+)/i.exec(template.trim());
  if (!match?.[1] || !match[2]) return undefined;
  const host = match[2].replace(/\{s\}/g, '*');
  // Any other placeholder in the host, or a character a CSP source cannot hold, and the policy
  // would be wrong: better no tiles than a policy that allows more than the operator meant.
  if (!/^(\*\.)?[a-z0-9.-]+(:\d+)?$/i.test(host)) return undefined;
  return `${match[1].toLowerCase()}://${host.toLowerCase()}`;
};

export const consoleContentSecurityPolicyHeader = consoleContentSecurityPolicyHeaderWith();

// Security headers on every response but the device protocol's (below; helmet, the maintained
// library): nosniff, X-Frame-Options DENY and frame-ancestors 'none', Referrer-Policy
// no-referrer, COOP/CORP. HSTS is left to the TLS-terminating proxy: this process often serves
// plain http, and an HSTS decision belongs to whoever owns the domain.
// The middleware is built once, here. @fastify/helmet builds it anew for every request (to allow
// per-route options we do not use): parsing the policy and assembling the middlewares again took
// ~5 % of the CPU of a steady 304 target-state poll (bench, BENCH_CPU_PROFILE).
const securityMiddleware = () =>
  helmet({
    contentSecurityPolicy: policy(apiContentSecurityPolicy),
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
  });

// What a device-protocol answer carries of them (route config `deviceProtocol`: the target state a
// supervisor or agent polls, or balena-sdk reads). Those answers are JSON or an empty 304 read by
// programs, never rendered by a browser: a page's policy, framing, referrer and cross-origin
// isolation headers say nothing to their readers. nosniff stays: should a browser ever open one,
// it shows the JSON as JSON. Ten headers fewer to write on most of what a fleet sends.
export const deviceProtocolSecurityHeaders: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
};

export const registerSecurityHeaders = (app: FastifyInstance): void => {
  const applyHeaders = securityMiddleware();
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.config.deviceProtocol === true) {
      for (const [name, value] of Object.entries(deviceProtocolSecurityHeaders)) {
        reply.raw.setHeader(name, value);
      }
      done();
      return;
    }
    applyHeaders(request.raw, reply.raw, (error) => {
      done(error instanceof Error ? error : undefined);
    });
  });
};
