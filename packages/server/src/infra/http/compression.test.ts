import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { anonymous } from '../auth/actor.js';
import { createApp } from './create-app.js';

const rows = Array.from({ length: 200 }, (_, id) => ({ id, device_name: `device-${id}` }));

const build = () => {
  const app = createApp({ logLevel: 'silent', resolveActor: async () => anonymous });
  app.get('/v7/device', { config: { access: 'public' } }, async () => ({ d: rows }));
  app.get('/v7/device(1)', { config: { access: 'public' } }, async () => ({ d: [rows[1]] }));
  app.get('/logs', { config: { access: 'public' } }, async (_request, reply) =>
    reply
      .type('application/x-ndjson')
      .send(Readable.from(rows.map((row) => `${JSON.stringify(row)}\n`))),
  );
  return app;
};

describe('response compression', () => {
  it('compresses a large JSON answer with brotli, else gzip, and says it varies', async () => {
    const app = build();
    const br = await app.inject({ url: '/v7/device', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual({ d: rows });
    const gzip = await app.inject({ url: '/v7/device', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual({ d: rows });
    // balena-sdk under Node asks for "compress, gzip"; a refused encoding (q=0) is never used.
    const sdk = await app.inject({
      url: '/v7/device',
      headers: { 'accept-encoding': 'compress, gzip' },
    });
    expect(sdk.headers['content-encoding']).toBe('gzip');
    const refused = await app.inject({
      url: '/v7/device',
      headers: { 'accept-encoding': 'br;q=0, gzip' },
    });
    expect(refused.headers['content-encoding']).toBe('gzip');
  });

  it('sends small answers, clients that do not ask, and NDJSON streams as they are', async () => {
    const app = build();
    const small = await app.inject({ url: '/v7/device(1)', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    const plain = await app.inject({ url: '/v7/device' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual({ d: rows });
    const stream = await app.inject({ url: '/logs', headers: { 'accept-encoding': 'br, gzip' } });
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.body.split('\n')).toHaveLength(rows.length + 1);
  });
});
