import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { cliLoginTarget } from '@flotilla/shared/auth/cli-login-target';
import {
  consoleContentSecurityPolicyHeaderWith,
  type PolicyAdditions,
  tileImageSource,
} from '../../infra/http/security-headers.js';
import { createIndexPages } from './console-index.js';

const cliLoginPrefix = '/login/cli/';

// The console's policy for a page. The command-line login page (/login/cli/<callback>) may post
// its form to that callback when the page would (localhost, a private address or one of the
// operator's networks), and only that page: every other page posts nowhere but here.
// Every page may show the map and the user's avatar, so every page may load the configured tile
// server's and avatar service's images.
// The chat widget's server (when one is configured) may serve every page its script and frame.
const contentSecurityPolicyFor = (
  urlPath: string,
  cliLoginNetworks: readonly string[],
  shared: PolicyAdditions,
): string => {
  if (!urlPath.startsWith(cliLoginPrefix)) return consoleContentSecurityPolicyHeaderWith(shared);
  const target = cliLoginTarget(urlPath.slice(cliLoginPrefix.length), cliLoginNetworks);
  return consoleContentSecurityPolicyHeaderWith({
    ...shared,
    formTargets: target.ok ? [target.origin] : [],
  });
};

// The origin of the avatar service's URL template, which the console loads pictures from.
const originOfTemplate = (template: string | null | undefined): string[] => {
  if (!template) return [];
  try {
    return [new URL(template.replaceAll('{hash}', 'hash')).origin];
  } catch {
    return [];
  }
};

// The built console (packages/web/dist), the same relative path from src/ and dist/.
export const defaultConsoleDir = fileURLToPath(new URL('../../../../web/dist/', import.meta.url));

export type ConsoleOptions = {
  // Directory of the built console (default: defaultConsoleDir).
  dir?: string;
  // Serve the .js.map files the build leaves beside the bundle (FLOTILLA_SERVE_SOURCE_MAPS).
  serveSourceMaps?: boolean;
  // The operator's networks for the command-line login page (FLOTILLA_CLI_LOGIN_ALLOWED_NETWORKS).
  cliLoginAllowedNetworks?: readonly string[];
  // The map's tile URL template (FLOTILLA_MAP_TILE_URL): its origin may serve images.
  mapTileUrl?: string;
  // The avatar service's URL template (FLOTILLA_AVATAR_URL): its origin may serve pictures.
  avatarUrl?: string | null;
  // The chat widget's server (FLOTILLA_CHATWOOT_URL): its origin may serve script and frames.
  chatWidgetUrl?: string | null;
  // Card payments through Stripe: Stripe.js and its frames load from Stripe's origins.
  cardPayments?: boolean;
  // A reCAPTCHA site key (sign-up, the payment-method form): Google's script and frame load.
  recaptcha?: boolean;
};

const recaptchaOrigins = ['https://www.google.com', 'https://www.gstatic.com'];

// Stripe.js (its script and frames) and the API it calls from the card form.
const stripeOrigins = [
  'https://js.stripe.com',
  'https://api.stripe.com',
  'https://hooks.stripe.com',
];

// Hashed bundle files: their name changes with their content, so browsers keep them for a year.
const immutable = 'public, max-age=31536000, immutable';
// Everything else (index.html, buildtime.txt, favicon) is revalidated on every use (ETag and
// Last-Modified make that a 304), so a new deployment is picked up at once.
const revalidate = 'no-cache';

// The file a URL path names inside the console directory, as a path relative to it; undefined
// when there is none or it must not be served (dot-directories such as .vite, source maps
// unless enabled, anything outside the directory).
const servableFile = (
  root: string,
  urlPath: string,
  serveSourceMaps: boolean,
): string | undefined => {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const normalized = path.posix.normalize(`/${decoded}`);
  if (normalized.split('/').some((segment) => segment.startsWith('.'))) return undefined;
  if (!serveSourceMaps && normalized.endsWith('.map')) return undefined;
  const candidate = path.resolve(root, `.${normalized}`);
  if (!candidate.startsWith(`${root}${path.sep}`) || !existsSync(candidate)) return undefined;
  return statSync(candidate).isFile() ? path.relative(root, candidate) : undefined;
};

// Serves the console on the API's origin: files from the build, and index.html for every other
// page navigation so deep links (/fleets/12/settings) load the app, which routes them itself.
// The build writes .br and .gz beside each text file; @fastify/static picks the best one the
// browser accepts (brotli first) and sets Content-Encoding, Vary, ETag and Last-Modified.
// Files are streams, which the dynamic compression leaves alone; the console's CSP replaces the
// API's stricter one.
export const registerConsole = (app: FastifyInstance, options: ConsoleOptions = {}): void => {
  const root = path.resolve(options.dir ?? defaultConsoleDir);
  const serveSourceMaps = options.serveSourceMaps ?? false;
  const cliLoginNetworks = options.cliLoginAllowedNetworks ?? [];
  const tileSource = tileImageSource(options.mapTileUrl ?? '');
  const shared: PolicyAdditions = {
    imageSources: [
      ...(tileSource === undefined ? [] : [tileSource]),
      ...originOfTemplate(options.avatarUrl),
    ],
    widgetOrigins: [
      ...originOfTemplate(options.chatWidgetUrl),
      ...(options.cardPayments ? stripeOrigins : []),
      ...(options.recaptcha ? recaptchaOrigins : []),
    ],
  };
  const index = path.join(root, 'index.html');
  const indexPage = createIndexPages(root);
  void app.register(fastifyStatic, {
    root,
    serve: false,
    preCompressed: true,
    cacheControl: false,
    index: false,
    // The route answers its own message when the console is not built.
    suppressWarning: true,
  });
  app.get('/*', { config: { access: 'public' } }, async (request, reply) => {
    if (!existsSync(index)) {
      return reply
        .status(404)
        .type('text/plain; charset=utf-8')
        .send(
          'The console is not built. Run `npm start` (or `npm run build`) from the repository root.',
        );
    }
    const urlPath = (request.raw.url ?? '/').split('?')[0] ?? '/';
    const found = urlPath === '/' ? 'index.html' : servableFile(root, urlPath, serveSourceMaps);
    const isAsset = urlPath.startsWith('/assets/');
    // Only page navigations fall back to the app. A missing bundle file is a plain 404 (never
    // index.html), so a stale tab notices its chunk is gone; an API client gets 404 too.
    if (!found && (isAsset || !(request.headers.accept ?? '').includes('text/html'))) {
      return reply.status(404).type('text/plain; charset=utf-8').send(`Not found: GET ${urlPath}`);
    }
    const file = found ?? 'index.html';
    void reply.header(
      'Content-Security-Policy',
      contentSecurityPolicyFor(urlPath, cliLoginNetworks, shared),
    );
    void reply.header('Cache-Control', isAsset && found ? immutable : revalidate);
    if (file === 'index.html') {
      // Written per URL (console-index.ts); compressed by the server's compression plugin.
      const page = indexPage(urlPath);
      void reply.header('ETag', page.etag);
      if (request.headers['if-none-match'] === page.etag) return reply.status(304).send();
      return reply.type('text/html; charset=utf-8').send(page.html);
    }
    if (serveSourceMaps && file.endsWith('.js') && existsSync(path.join(root, `${file}.map`))) {
      // The build leaves no sourceMappingURL comment in the bundle ('hidden' maps): this header
      // tells the browser's developer tools where the map is, only when maps are served.
      void reply.header('SourceMap', `/${file.split(path.sep).join('/')}.map`);
    }
    return reply.sendFile(file, root);
  });
};
