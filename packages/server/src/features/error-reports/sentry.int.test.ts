import { createServer, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';

// The Sentry adapter (FLOTILLA_SENTRY_DSN) against a strict local fake of Sentry's ingest
// endpoint: Sentry is a third party we cannot run here, so this fake accepts only what the
// official SDK sends for an event (POST /api/<project>/envelope/ with the DSN's public key), and
// any other request fails the test.

type Envelope = { header: Record<string, unknown>; items: { type: unknown; payload: unknown }[] };

const projectId = '42';
const publicKey = 'abcdef0123456789abcdef0123456789';

let db: Database;
let app: FastifyInstance;
let sentry: Server;
const problems: string[] = [];
const envelopes: Envelope[] = [];
let nextEnvelope: (() => void) | undefined;

const parseEnvelope = (body: Buffer): Envelope => {
  const [headerLine, ...rest] = body
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '');
  const items: Envelope['items'] = [];
  for (let index = 0; index + 1 < rest.length; index += 2) {
    const itemHeader: unknown = JSON.parse(rest[index] ?? '');
    const type =
      typeof itemHeader === 'object' && itemHeader !== null && 'type' in itemHeader
        ? itemHeader.type
        : undefined;
    items.push({ type, payload: JSON.parse(rest[index + 1] ?? '') });
  }
  return { header: JSON.parse(headerLine ?? '{}'), items };
};

beforeAll(async () => {
  sentry = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://sentry.test');
      const auth = String(request.headers['x-sentry-auth'] ?? url.searchParams.get('sentry_key'));
      if (
        request.method !== 'POST' ||
        url.pathname !== `/api/${projectId}/envelope/` ||
        !auth.includes(publicKey)
      ) {
        problems.push(`${request.method} ${request.url}`);
        response.writeHead(400).end();
        return;
      }
      const raw = Buffer.concat(chunks);
      envelopes.push(
        parseEnvelope(request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw),
      );
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      nextEnvelope?.();
    });
  });
  await new Promise<void>((resolve) => sentry.listen(0, '127.0.0.1', resolve));
  const address = sentry.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  db = await createTestDatabase();
  app = buildServer(
    createTestContext(db, {
      config: { sentryDsn: `http://${publicKey}@127.0.0.1:${address.port}/${projectId}` },
    }),
  );
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await db?.close();
  await new Promise((resolve) => sentry?.close(resolve));
});

const envelopeArrives = (): Promise<void> =>
  new Promise((resolve) => {
    nextEnvelope = resolve;
  });

describe('the Sentry adapter', () => {
  it('sends a console error to Sentry as an event, scrubbed, and keeps it built in too', async () => {
    const arrived = envelopeArrives();
    const response = await app.inject({
      method: 'POST',
      url: '/error-reports/v1',
      payload: {
        name: 'TypeError',
        message: 'x is undefined with token=SECRET-TOKEN',
        location: '/fleets/:fleetId',
        release: '0.1.0',
        requestId: 'req-9',
      },
    });
    expect(response.statusCode).toBe(204);
    await arrived;
    const [envelope] = envelopes;
    const event = envelope?.items.find((item) => item.type === 'event')?.payload;
    expect(event).toMatchObject({
      level: 'error',
      release: '0.1.0',
      exception: { values: [{ type: 'TypeError', value: 'x is undefined with token=[redacted]' }] },
      tags: { source: 'console', location: '/fleets/:fleetId' },
      extra: { requestId: 'req-9' },
    });
    expect(JSON.stringify(envelopes)).not.toContain('SECRET-TOKEN');
    const { rows } = await db.query(`SELECT 1 FROM "error_report" WHERE "source" = 'console'`);
    expect(rows).toHaveLength(1);
    expect(problems).toEqual([]);
  });
});
