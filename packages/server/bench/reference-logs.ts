import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { createBatcher } from './reference-batcher.js';

// The reference for log ingest and live tail: NDJSON uploads parsed as they arrive, every chunk's
// lines queued for one batched INSERT ... SELECT FROM unnest(...) (group commit), the upload paused
// while its chunk waits (back-pressure); once stored, the lines go to the device's subscribers in
// this process. No retention and no cross-process fan-out: the bare minimum of the same work.

type Line = { message: string; timestamp: number; isSystem: boolean; isStdErr: boolean };
type Chunk = { device: number; lines: Line[] };

const insertSql = `
  INSERT INTO "device_log" ("device", "created_at", "timestamp", "message", "is_system", "is_stderr")
  SELECT * FROM unnest($1::integer[], $2::bigint[], $3::bigint[], $4::text[], $5::boolean[], $6::boolean[])`;

const parseLine = (text: string): Line | undefined => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || !('message' in value)) return undefined;
  const fields: Record<string, unknown> = { ...value };
  if (typeof fields.message !== 'string') return undefined;
  return {
    message: fields.message,
    timestamp: typeof fields.timestamp === 'number' ? Math.trunc(fields.timestamp) : Date.now(),
    isSystem: fields.isSystem === true,
    isStdErr: fields.isStdErr === true,
  };
};

export const registerReferenceLogs = (app: FastifyInstance, pool: pg.Pool): void => {
  const live = new EventEmitter();
  live.setMaxListeners(0);
  const batcher = createBatcher<Chunk>(
    async (chunks) => {
      const rows = chunks.flatMap((chunk) =>
        chunk.lines.map((line) => ({ device: chunk.device, line })),
      );
      const now = Date.now();
      await pool.query(insertSql, [
        rows.map((row) => row.device),
        rows.map(() => now),
        rows.map((row) => row.line.timestamp),
        rows.map((row) => row.line.message),
        rows.map((row) => row.line.isSystem),
        rows.map((row) => row.line.isStdErr),
      ]);
      for (const chunk of chunks) {
        const text = chunk.lines
          .map((line) => `${JSON.stringify({ ...line, createdAt: now })}\n`)
          .join('');
        live.emit(String(chunk.device), text);
      }
    },
    1,
    100_000,
  );

  void app.register(async (scoped) => {
    scoped.addContentTypeParser('application/x-ndjson', (_request, payload, done) =>
      done(null, payload),
    );
    scoped.post<{ Params: { device: string } }>(
      '/ref/log-stream/:device',
      async (request, reply) => {
        const device = Number(request.params.device);
        const body = request.body;
        if (!(body instanceof Readable)) return reply.status(400).send();
        body.setEncoding('utf8');
        let rest = '';
        for await (const chunk of body) {
          const texts = (rest + String(chunk)).split('\n');
          rest = texts.pop() ?? '';
          const lines = texts.map(parseLine).filter((line): line is Line => line !== undefined);
          if (lines.length > 0) await batcher.add({ device, lines });
        }
        const last = parseLine(rest);
        if (last) await batcher.add({ device, lines: [last] });
        return reply.status(201).send();
      },
    );
  });

  app.get<{ Params: { device: string } }>('/ref/log-tail/:device', (request, reply) => {
    const event = String(Number(request.params.device));
    reply.raw.writeHead(200, { 'content-type': 'application/x-ndjson' });
    reply.raw.flushHeaders();
    const forward = (text: string): void => {
      reply.raw.write(text);
    };
    live.on(event, forward);
    request.raw.on('close', () => live.off(event, forward));
    reply.hijack();
  });
};
