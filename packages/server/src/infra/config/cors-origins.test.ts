import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { parseCorsOrigins } from './cors-origins.js';

describe('FLOTILLA_CORS_ORIGINS', () => {
  it('defaults to any origin', () => {
    expect(loadConfig({}).corsOrigins).toEqual({ kind: 'any' });
    expect(parseCorsOrigins('*')).toEqual({ kind: 'any' });
    expect(parseCorsOrigins(' ')).toEqual({ kind: 'any' });
  });

  it('reads a comma-separated list of origins', () => {
    expect(parseCorsOrigins('https://console.example.com, http://localhost:5173/')).toEqual({
      kind: 'list',
      origins: ['https://console.example.com', 'http://localhost:5173'],
    });
  });

  it('refuses what is not an origin', () => {
    expect(parseCorsOrigins('https://example.com/app')).toMatch(/no path/);
    expect(parseCorsOrigins('example.com')).toMatch(/not an origin/);
    expect(parseCorsOrigins('ftp://example.com')).toMatch(/not an origin/);
    expect(parseCorsOrigins('*,https://example.com')).toMatch(/cannot be combined/);
    expect(() => loadConfig({ FLOTILLA_CORS_ORIGINS: 'https://example.com/x' })).toThrow(
      /FLOTILLA_CORS_ORIGINS/,
    );
  });
});
