import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

// The repository's own Markdown, served to the console's documentation pages (/docs/:page).
// Paths are relative to this module: the same from src/ and dist/.
const repositoryFile = (relative: string): string =>
  fileURLToPath(new URL(`../../../../../${relative}`, import.meta.url));

export const defaultDocPages: Readonly<Record<string, string>> = {
  'getting-started': repositoryFile('README.md'),
  architecture: repositoryFile('docs/ARCHITECTURE.md'),
  devices: repositoryFile('docs/DEVICES.md'),
  'host-os': repositoryFile('docs/HOST-OS.md'),
  releases: repositoryFile('docs/RELEASES.md'),
  accounts: repositoryFile('docs/ACCOUNTS.md'),
  sso: repositoryFile('docs/SSO.md'),
  'api-limits': repositoryFile('docs/API-LIMITS.md'),
  production: repositoryFile('docs/PRODUCTION.md'),
  failover: repositoryFile('docs/FAILOVER.md'),
  scaling: repositoryFile('docs/SCALING.md'),
  monitoring: repositoryFile('docs/MONITORING.md'),
  events: repositoryFile('docs/EVENTS.md'),
  support: repositoryFile('docs/SUPPORT.md'),
  benchmark: repositoryFile('docs/BENCHMARK.md'),
  development: repositoryFile('docs/DEVELOPMENT.md'),
  agent: repositoryFile('packages/agent/README.md'),
};

// This product's changelog, read by the console's changelog dialog (GET /CHANGELOG.md).
export const defaultChangelogFile = repositoryFile('CHANGELOG.md');

const isMissing = (error: unknown): boolean =>
  error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'EISDIR');

// GET /CHANGELOG.md, and GET /docs/v1/:page: one known page as text/markdown; an unknown page, or a page whose file is
// not there (an installation without the repository's docs), answers 404 as text.
const readIfThere = async (file: string): Promise<string | undefined> => {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (!isMissing(error)) throw error;
    return undefined;
  }
};

export const registerDocs = (
  app: FastifyInstance,
  pages: Readonly<Record<string, string>> = defaultDocPages,
  changelogFile: string = defaultChangelogFile,
): void => {
  app.get('/CHANGELOG.md', { config: { access: 'public' } }, async (_request, reply) => {
    const text = await readIfThere(changelogFile);
    if (text === undefined) {
      return reply.status(404).type('text/plain; charset=utf-8').send('No changelog');
    }
    void reply.header('Cache-Control', 'no-cache');
    return reply.type('text/markdown; charset=utf-8').send(text);
  });
  app.get<{ Params: { page: string } }>(
    '/docs/v1/:page',
    { config: { access: 'public' } },
    async (request, reply) => {
      const { page } = request.params;
      const file = Object.hasOwn(pages, page) ? pages[page] : undefined;
      const text = file === undefined ? undefined : await readIfThere(file);
      if (text === undefined) {
        return reply
          .status(404)
          .type('text/plain; charset=utf-8')
          .send(`No documentation page named ${page}`);
      }
      void reply.header('Cache-Control', 'no-cache');
      return reply.type('text/markdown; charset=utf-8').send(text);
    },
  );
};
