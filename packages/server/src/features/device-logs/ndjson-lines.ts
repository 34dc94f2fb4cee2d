import { StringDecoder } from 'node:string_decoder';

// Splits a byte stream into text lines as it arrives, one array of complete lines per chunk.
// A line longer than `maxLineBytes` is skipped whole (counted in `oversized`) without ever being
// held in memory beyond that limit.

export type LineCounters = { oversized: number };

export async function* ndjsonLines(
  source: AsyncIterable<Buffer | string>,
  maxLineBytes: number,
  counters: LineCounters,
): AsyncGenerator<string[]> {
  const decoder = new StringDecoder('utf8');
  let partial = '';
  // True while skipping the rest of an oversized line.
  let skipping = false;
  for await (const chunk of source) {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    const pieces = text.split('\n');
    const lines: string[] = [];
    for (let index = 0; index < pieces.length; index += 1) {
      const piece = pieces[index] ?? '';
      const complete = index < pieces.length - 1;
      if (skipping) {
        if (complete) skipping = false;
        continue;
      }
      partial += piece;
      if (Buffer.byteLength(partial) > maxLineBytes) {
        counters.oversized += 1;
        partial = '';
        skipping = !complete;
        continue;
      }
      if (complete) {
        const line = partial.trim();
        partial = '';
        if (line !== '') lines.push(line);
      }
    }
    if (lines.length > 0) yield lines;
  }
  const rest = (partial + decoder.end()).trim();
  if (!skipping && rest !== '' && Buffer.byteLength(rest) <= maxLineBytes) yield [rest];
}
