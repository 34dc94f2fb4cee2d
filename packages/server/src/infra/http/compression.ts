import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyInstance } from 'fastify';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

// Below this an answer is sent as it is: compressing saves less than it costs (most device
// protocol replies, every 304).
export const compressionThresholdBytes = 1024;

// JSON and text answers. Streams are never compressed (see below).
export const compressibleType = (contentType: string): boolean =>
  /^(application\/json|text\/(plain|markdown|html|css|javascript))(;|$)/i.test(contentType);

const encodings = new Negotiator<'br' | 'gzip'>({ supportedValues: ['br', 'gzip'] });

const addVary = (current: unknown): string => {
  const values = String(current ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
  return values.some((value) => value.toLowerCase() === 'accept-encoding' || value === '*')
    ? values.join(', ')
    : [...values, 'Accept-Encoding'].join(', ');
};

// Dynamic answers (JSON, text) above 1 KiB are compressed when the client asks: brotli at
// quality 4 (fast; 11 is for build time), else gzip. /v7 lists are repetitive JSON that shrinks
// about tenfold, which matters to a console or CLI on a real network.
// Only buffered bodies are compressed. Streams pass untouched: the device log stream (NDJSON)
// must reach the client line by line, which a compressor would hold back, and the console's
// files are precompressed at build time and served as files (register-console.ts).
// A hook of our own rather than @fastify/compress: that plugin attaches itself per route when
// routes are declared, and our features declare theirs before the app's plugins have loaded.
export const registerCompression = (app: FastifyInstance): void => {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (reply.hasHeader('content-encoding')) return payload;
    if (!compressibleType(String(reply.getHeader('content-type') ?? ''))) return payload;
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    if (body.length < compressionThresholdBytes) return payload;
    // The answer depends on Accept-Encoding from here on, compressed or not.
    void reply.header('Vary', addVary(reply.getHeader('vary')));
    const accepted = request.headers['accept-encoding'];
    const encoding = typeof accepted === 'string' ? encodings.negotiate(accepted) : null;
    if (!encoding) return payload;
    const compressed =
      encoding === 'br'
        ? await brotli(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 4,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          })
        : await gzipAsync(body);
    void reply.header('Content-Encoding', encoding);
    void reply.header('Content-Length', compressed.length);
    return compressed;
  });
};
