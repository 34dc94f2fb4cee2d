import { describe, expect, it } from 'vitest';
import { loggerOptions, resolveLogFormat } from './logger-options.js';

describe('log format', () => {
  it('is human-readable on a terminal and JSON otherwise, unless chosen', () => {
    expect(resolveLogFormat('auto', true)).toBe('pretty');
    expect(resolveLogFormat('auto', false)).toBe('json');
    expect(resolveLogFormat('json', true)).toBe('json');
    expect(resolveLogFormat('pretty', false)).toBe('pretty');
  });

  it('writes to a stream of its own, unless silent', () => {
    expect(loggerOptions('info', 'json').stream).toBeDefined();
    const pretty = loggerOptions('debug', 'pretty');
    expect(pretty.level).toBe('debug');
    expect(pretty.stream).toBeDefined();
    expect(loggerOptions('silent', 'pretty')).toEqual({ level: 'silent' });
  });
});
