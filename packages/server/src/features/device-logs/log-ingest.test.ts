import { PassThrough, Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { defaultIngestLimits, type IngestLimits, ingestLogStream } from './log-ingest.js';
import type { StoredLine } from './log-line.js';

const ingest = (
  chunks: (string | Buffer)[],
  limits: Partial<IngestLimits> = {},
  encoding?: string,
) => {
  const written: StoredLine[] = [];
  let activity = 0;
  const stats = ingestLogStream(Readable.from(chunks), encoding, {
    accept: (lines) => written.push(...lines),
    settled: async () => undefined,
    limits: { ...defaultIngestLimits, ...limits },
    now: () => new Date(1_000_000),
    onActivity: () => (activity += 1),
  });
  return { stats, written, activity: () => activity };
};

const line = (message: string): string => `${JSON.stringify({ message, timestamp: 1 })}\n`;

describe('ingestLogStream', () => {
  it('joins lines split across chunks and skips bad and oversized ones', async () => {
    const run = ingest(
      [
        '{"message":"a","times',
        'tamp":5}\nnot json\n\n',
        `{"message":"${'y'.repeat(200)}"}\n`,
        line('b').trimEnd(),
      ],
      { maxLineBytes: 100 },
    );
    expect(await run.stats).toEqual({ accepted: 2, invalid: 1, oversized: 1, dropped: 0 });
    expect(run.written.map((stored) => [stored.message, stored.timestamp])).toEqual([
      ['a', 5],
      ['b', 1],
    ]);
    expect(run.activity()).toBeGreaterThan(0);
  });

  it('stamps lines without a timestamp with the server time and caps messages', async () => {
    const run = ingest([`{"message":"${'z'.repeat(20_000)}","isStdErr":true}\n`]);
    await run.stats;
    expect(run.written).toEqual([
      {
        message: 'z'.repeat(10_000),
        timestamp: 1_000_000,
        isSystem: false,
        isStdErr: true,
        serviceId: null,
      },
    ]);
  });

  it('drops lines over the rate limit and says so once', async () => {
    const run = ingest([line('1') + line('2') + line('3') + line('4') + line('5')], {
      burstLines: 3,
      linesPerSecond: 0,
    });
    expect(await run.stats).toMatchObject({ accepted: 4, dropped: 2 });
    expect(run.written.map((stored) => stored.message)).toEqual([
      '1',
      '2',
      '3',
      expect.stringContaining('dropped'),
    ]);
    expect(run.written[3]?.isSystem).toBe(true);
  });

  it('reads gzip, and refuses encodings it does not know', async () => {
    const run = ingest([gzipSync(line('zipped'))], {}, 'gzip');
    expect(await run.stats).toMatchObject({ accepted: 1 });
    expect(run.written[0]?.message).toBe('zipped');
    await expect(ingest([line('x')], {}, 'br').stats).rejects.toThrow(/Content-Encoding/);
  });
});

describe('ingestLogStream and storage', () => {
  it('hands each chunk on as it arrives, and ends once its lines are settled', async () => {
    const events: string[] = [];
    let release = (): void => undefined;
    const stored = new Promise<void>((resolve) => (release = resolve));
    const source = new PassThrough();
    const stats = ingestLogStream(source, undefined, {
      accept: (lines) => events.push(...lines.map((line) => `accept ${line.message}`)),
      settled: async () => {
        events.push('settling');
        await stored;
      },
      limits: defaultIngestLimits,
      now: () => new Date(1_000_000),
      onActivity: () => undefined,
    });
    const accepted = (count: number): Promise<void> =>
      new Promise((resolve) => {
        const check = (): void => {
          if (events.length >= count) resolve();
          else setImmediate(check);
        };
        check();
      });
    source.write(line('1'));
    await accepted(1);
    source.end(line('2'));
    await accepted(3);
    expect(events).toEqual(['accept 1', 'accept 2', 'settling']);
    let ended = false;
    void stats.then(() => (ended = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended).toBe(false);
    release();
    expect(await stats).toMatchObject({ accepted: 2 });
  });
});
