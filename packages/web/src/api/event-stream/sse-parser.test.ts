import { describe, expect, it } from 'vitest';
import { createSseParser, type SseEvent } from './sse-parser.js';

const parse = (chunks: string[]) => {
  const events: SseEvent[] = [];
  const parser = createSseParser((event) => events.push(event));
  for (const chunk of chunks) parser.push(chunk);
  return { events, parser };
};

describe('createSseParser', () => {
  it('reads events, their ids and names, skipping comments', () => {
    const { events, parser } = parse([
      'retry: 3000\n: connected\n\n',
      'id: 4\ndata: {"type":"device.online"}\n\n',
      'id: 9\nevent: reset\ndata: {"reason":"gone"}\n\n',
    ]);
    expect(events).toEqual([
      { id: '4', event: 'message', data: '{"type":"device.online"}' },
      { id: '9', event: 'reset', data: '{"reason":"gone"}' },
    ]);
    expect(parser.lastEventId()).toBe('9');
    expect(parser.retryMs()).toBe(3000);
  });

  it('joins data lines and accepts a chunk split anywhere, with LF, CR or CRLF line ends', () => {
    const text = 'id: 1\r\ndata: first\r\ndata:second\r\rdata: third\n\n';
    // Every split point, including between the CR and the LF of a CRLF.
    for (let cut = 0; cut <= text.length; cut += 1) {
      const { events } = parse([text.slice(0, cut), text.slice(cut)]);
      expect(events).toEqual([
        { id: '1', event: 'message', data: 'first\nsecond' },
        { id: '1', event: 'message', data: 'third' },
      ]);
    }
  });

  it('dispatches nothing for a block without data, and nothing before its blank line', () => {
    const { events, parser } = parse([': heartbeat\n\n', 'id: 7\n\n', 'data: half']);
    expect(events).toEqual([]);
    expect(parser.lastEventId()).toBe('7');
  });

  it('ignores a malformed retry', () => {
    const { parser } = parse(['retry: soon\n\n']);
    expect(parser.retryMs()).toBeUndefined();
  });
});
