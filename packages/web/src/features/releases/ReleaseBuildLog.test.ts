import { buildLogDisplayLines } from '@flotilla/shared/releases/builder-limits';
import { describe, expect, it } from 'vitest';
import { lastLines } from './ReleaseBuildLog.js';

describe('build log lines', () => {
  it('keeps the last 2,999 lines', () => {
    const text = Array.from({ length: 3001 }, (_, index) => `line ${index}`).join('\n');
    const { lines, dropped } = lastLines(text);
    expect(buildLogDisplayLines).toBe(2999);
    expect(lines).toHaveLength(2999);
    expect(lines[0]).toBe('line 2');
    expect(dropped).toBe(2);
    expect(lastLines(text).total).toBe(3001);
  });

  it('has no lines for no log', () => {
    expect(lastLines(null)).toEqual({ lines: [], dropped: 0, total: 0 });
    expect(lastLines('')).toEqual({ lines: [], dropped: 0, total: 0 });
  });
});
