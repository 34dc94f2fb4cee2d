import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, StoredGzip } from './stored-gzip.js';

const collect = (stream: StoredGzip): Promise<Buffer> =>
  new Promise((resolve) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
  });

describe('StoredGzip', () => {
  it('computes the standard CRC-32', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32(Buffer.from('56789'), crc32(Buffer.from('1234')))).toBe(0xcbf43926);
  });

  it('produces gzip that zlib decodes, across flushes and large writes', async () => {
    const stream = new StoredGzip();
    const output = collect(stream);
    stream.write('{"message":"hello"}\n');
    stream.flush();
    const big = 'x'.repeat(150_000);
    stream.write(`${big}\n`);
    stream.write('{"message":"é ✓"}\n');
    stream.end();
    expect(gunzipSync(await output).toString('utf8')).toBe(
      `{"message":"hello"}\n${big}\n{"message":"é ✓"}\n`,
    );
  });

  it('is a valid empty gzip when nothing was written', async () => {
    const stream = new StoredGzip();
    const output = collect(stream);
    stream.end();
    expect(gunzipSync(await output).length).toBe(0);
  });
});
