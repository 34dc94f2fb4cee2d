import { createReadStream, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

// The built console (packages/web/dist), the same relative path from src/ and dist/.
export const defaultConsoleDir = fileURLToPath(new URL('../../../../web/dist/', import.meta.url));

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
};

const fileIn = (root: string, urlPath: string): string | undefined => {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const candidate = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`);
  if (!candidate.startsWith(root) || !existsSync(candidate)) return undefined;
  return statSync(candidate).isFile() ? candidate : undefined;
};

// Serves the console on the API's origin: files from the build, and index.html for every other
// GET so deep links (/fleets/12/settings) load the app, which routes them itself.
export const registerConsole = (app: FastifyInstance, consoleDir = defaultConsoleDir): void => {
  const root = path.resolve(consoleDir);
  const index = path.join(root, 'index.html');
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
    const found = urlPath === '/' ? index : fileIn(root, urlPath);
    // Only page navigations fall back to the app; an API client asking an unknown path gets 404.
    if (!found && !(request.headers.accept ?? '').includes('text/html')) {
      return reply.status(404).type('text/plain; charset=utf-8').send(`Not found: GET ${urlPath}`);
    }
    const file = found ?? index;
    const extension = path.extname(file);
    // Hashed bundle files never change; index.html and buildtime.txt must always be fresh.
    const immutable = urlPath.startsWith('/assets/');
    void reply.header(
      'Cache-Control',
      immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    );
    return reply
      .type(contentTypes[extension] ?? 'application/octet-stream')
      .send(createReadStream(file));
  });
};
