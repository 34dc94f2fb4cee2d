import { describe, expect, it } from 'vitest';
import { loggerOptions, resolveLogFormat } from './logger-options.js';

describe('log format', () => {
  it('is human-readable on a terminal and JSON otherwise, unless chosen', () => {
    expect(resolveLogFormat('auto', true)).toBe('pretty');
    expect(resolveLogFormat('auto', false)).toBe('json');
    expect(resolveLogFormat('json', true)).toBe('json');
    expect(resolveLogFormat('pretty', false)).toBe('pretty');
  });

  it('writes JSON to stdout, and pretty lines through pino-pretty', () => {
    expect(loggerOptions('info', 'json')).toEqual({ level: 'info' });
    const pretty = loggerOptions('debug', 'pretty');
    expect(pretty.level).toBe('debug');
    expect(pretty.stream).toBeDefined();
  });
});
