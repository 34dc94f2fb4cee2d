import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { agentPackagePath } from '@flotilla/shared/agent/agent-package';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { registerAgentPackage } from './register-agent-package.js';

describe('GET /agent/flotilla-agent.tgz', () => {
  let db: Database;
  let app: FastifyInstance;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'flotilla-agent-route-'));
    file = path.join(dir, 'flotilla-agent.tgz');
    db = await createTestDatabase();
    app = await createTestApp(createTestContext(db), (fastify) =>
      registerAgentPackage(fastify, file),
    );
  });

  afterAll(async () => {
    await app.close();
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers 404 with what to do while the package is not built', async () => {
    const response = await app.inject({ url: agentPackagePath });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.body).toMatch(/not built\. Run `npm run build`/);
  });

  it('serves the file without a token, revalidated by its ETag, and a rebuilt file anew', async () => {
    await writeFile(file, Buffer.from([0x1f, 0x8b, 1, 2, 3]));
    const first = await app.inject({ url: agentPackagePath });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/gzip');
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.rawPayload).toEqual(Buffer.from([0x1f, 0x8b, 1, 2, 3]));
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"[\w-]{27}"$/);

    const again = await app.inject({
      url: agentPackagePath,
      headers: { 'if-none-match': `"other", ${String(etag)}` },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    await writeFile(file, Buffer.from([0x1f, 0x8b, 9, 9]));
    // A rebuild within the same clock tick still differs in size; the mtime makes it certain.
    await utimes(file, new Date(), new Date(Date.now() + 5_000));
    const rebuilt = await app.inject({
      url: agentPackagePath,
      headers: { 'if-none-match': String(etag) },
    });
    expect(rebuilt.statusCode).toBe(200);
    expect(rebuilt.rawPayload).toEqual(Buffer.from([0x1f, 0x8b, 9, 9]));
    expect(rebuilt.headers.etag).not.toBe(etag);
  });

  it('answers HEAD with the headers only', async () => {
    const response = await app.inject({ method: 'HEAD', url: agentPackagePath });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/gzip');
    expect(response.body).toBe('');
  });
});
