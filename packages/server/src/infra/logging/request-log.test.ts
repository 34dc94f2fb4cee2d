import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { QuietRequestLog, requestChildLogger } from './request-log.js';

type Line = { level: number; msg: string; url?: string; statusCode?: number };

const appLogging = (level: string): { app: FastifyInstance; lines: Line[] } => {
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n')) {
        if (text.trim() !== '') lines.push(JSON.parse(text) as Line);
      }
      done();
    },
  });
  const app = Fastify({
    logger: { level, stream },
    logController: new QuietRequestLog(),
    childLoggerFactory: requestChildLogger,
  });
  app.get('/device/v3/:uuid/state', async () => ({ ok: true }));
  app.get('/fails', async (request) => {
    request.log.error('it broke');
    return { ok: false };
  });
  return { app, lines };
};

let open: FastifyInstance | undefined;
afterEach(async () => {
  await open?.close();
});

describe('request log lines', () => {
  it('are not written at the default level (devices poll all the time)', async () => {
    const { app, lines } = appLogging('info');
    open = app;
    expect((await app.inject({ url: '/device/v3/abc/state' })).statusCode).toBe(200);
    expect(lines).toEqual([]);
  });

  it('are one line per request at debug, without the query string', async () => {
    const { app, lines } = appLogging('debug');
    open = app;
    await app.inject({ url: '/device/v3/abc/state?apikey=secret-key' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 20,
      msg: 'request',
      url: '/device/v3/abc/state',
      statusCode: 200,
    });
    expect(JSON.stringify(lines)).not.toContain('secret-key');
  });

  it("log through the app's logger below debug, and a child naming the request at debug", async () => {
    for (const [level, expectsId] of [
      ['info', false],
      ['debug', true],
    ] as const) {
      const { app, lines } = appLogging(level);
      open = app;
      await app.inject({ url: '/fails' });
      const line = lines.find((entry) => entry.msg === 'it broke');
      expect(line).toBeDefined();
      expect(line !== undefined && 'reqId' in line, level).toBe(expectsId);
      await app.close();
    }
  });
});
