import { logBufferLines } from '@flotilla/shared/devices/device-panel-constants';
import { describe, expect, it } from 'vitest';
import { appendLines, formatTimestamp, lineFilter, logsText } from './log-lines.js';
import type { LogLine } from './log-stream.js';

const line = (message: string, extra: Partial<LogLine> = {}): LogLine => ({
  message,
  createdAt: 0,
  timestamp: Date.UTC(2026, 10, 24, 9, 30, 15, 123),
  isSystem: false,
  isStdErr: false,
  ...extra,
});

const services = new Map([
  [1, 'web'],
  [2, 'web-proxy'],
]);

describe('log lines', () => {
  it('keeps the newest 5,000 lines', () => {
    expect(logBufferLines).toBe(5000);
    const many = Array.from({ length: 4990 }, (_, index) => line(`old ${index}`));
    const kept = appendLines(many, [line('a'), ...many.slice(0, 20), line('z')], logBufferLines);
    expect(kept).toHaveLength(5000);
    expect(kept.at(-1)?.message).toBe('z');
    expect(kept[0]?.message).toBe('old 12');
    const burst = Array.from({ length: 6000 }, (_, index) => line(`b ${index}`));
    expect(appendLines(kept, burst, logBufferLines)[0]?.message).toBe('b 1000');
  });

  it('filters by source: a whole name exactly, a part of one loosely, system lines as System', () => {
    const lines = [
      line('from web', { serviceId: 1 }),
      line('from proxy', { serviceId: 2 }),
      line('booted', { isSystem: true }),
    ];
    const shown = (text: string) => lines.filter(lineFilter(text, services)).map((l) => l.message);
    expect(shown('')).toEqual(['from web', 'from proxy', 'booted']);
    expect(shown('Web')).toEqual(['from web']);
    expect(shown('we')).toEqual(['from web', 'from proxy']);
    expect(shown('system')).toEqual(['booted']);
  });

  it('writes the file as shown: UTC or not, with or without timestamps', () => {
    expect(formatTimestamp(line('x').timestamp, true)).toBe('2026-11-24 09:30:15.123Z');
    const lines = [line('hello', { serviceId: 1 }), line('booted', { isSystem: true })];
    expect(logsText(lines, services, { utc: true, hideTimestamps: false })).toBe(
      '2026-11-24 09:30:15.123Z [web] hello\n2026-11-24 09:30:15.123Z [System] booted\n',
    );
    expect(logsText(lines, services, { utc: true, hideTimestamps: true })).toBe(
      '[web] hello\n[System] booted\n',
    );
  });
});
