import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { registerDocs } from './register-docs.js';

const repositoryFile = (relative: string): Promise<string> =>
  readFile(new URL(`../../../../../${relative}`, import.meta.url), 'utf8');

describe('GET /docs/v1/:page', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it.each([
    ['getting-started', 'README.md'],
    ['architecture', 'docs/ARCHITECTURE.md'],
    ['devices', 'docs/DEVICES.md'],
    ['releases', 'docs/RELEASES.md'],
    ['accounts', 'docs/ACCOUNTS.md'],
    ['sso', 'docs/SSO.md'],
    ['api-limits', 'docs/API-LIMITS.md'],
    ['failover', 'docs/FAILOVER.md'],
    ['scaling', 'docs/SCALING.md'],
    ['benchmark', 'docs/BENCHMARK.md'],
    ['development', 'docs/DEVELOPMENT.md'],
    ['agent', 'packages/agent/README.md'],
  ])('serves %s from %s as Markdown, without a token', async (page, file) => {
    const response = await fetch(`${server.url}/docs/v1/${page}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await response.text()).toBe(await repositoryFile(file));
  });

  it('answers 404 as text for an unknown page', async () => {
    for (const page of ['nope', 'constructor', '..%2F..%2Fpackage.json']) {
      const response = await fetch(`${server.url}/docs/v1/${page}`, {
        headers: { accept: 'text/html' },
      });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await response.text()).toMatch(/^No documentation page named /);
    }
  });

  it("serves this product's changelog at /CHANGELOG.md, without a token", async () => {
    const response = await fetch(`${server.url}/CHANGELOG.md`, {
      headers: { accept: 'text/html' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await response.text()).toBe(await repositoryFile('CHANGELOG.md'));
  });

  it('answers 404 when a known page has no file', async () => {
    const db = await createTestDatabase();
    const app = await createTestApp(createTestContext(db), (fastify) =>
      registerDocs(
        fastify,
        { gone: '/nonexistent/flotilla/GONE.md' },
        '/nonexistent/flotilla/CHANGELOG.md',
      ),
    );
    try {
      const response = await app.inject({ url: '/docs/v1/gone' });
      expect(response.statusCode).toBe(404);
      expect(response.body).toBe('No documentation page named gone');
      const changelog = await app.inject({ url: '/CHANGELOG.md' });
      expect(changelog.statusCode).toBe(404);
      expect(changelog.body).toBe('No changelog');
    } finally {
      await app.close();
      await db.close();
    }
  });
});
