import { describe, expect, it } from 'vitest';
import { anonymous } from '../auth/actor.js';
import { createApp } from './create-app.js';
import { redactUrl } from './log-redaction.js';

describe('redactUrl', () => {
  it('hides secret query values and keeps the rest as sent', () => {
    expect(redactUrl('/v7/device?apikey=abc&$top=1&access_token=x%20y&refresh_token=z')).toBe(
      '/v7/device?apikey=[redacted]&$top=1&access_token=[redacted]&refresh_token=[redacted]',
    );
    expect(redactUrl('/auth/github/callback?code=123&state=s')).toBe(
      '/auth/github/callback?code=[redacted]&state=s',
    );
    expect(redactUrl('/x?api%5Fkey=1&TOKEN=2&flag')).toBe(
      '/x?api%5Fkey=[redacted]&TOKEN=[redacted]&flag',
    );
    expect(redactUrl('/v7/device?$filter=uuid%20eq%20%27a%27')).toBe(
      '/v7/device?$filter=uuid%20eq%20%27a%27',
    );
  });

  it('hides secrets carried in the path', () => {
    expect(redactUrl('/user/v1/invitation/tok123')).toBe('/user/v1/invitation/[redacted]');
    expect(redactUrl('/invitation/tok123?x=1')).toBe('/invitation/[redacted]?x=1');
    expect(redactUrl('/user/verify-email/tok/ada%40example.com')).toBe(
      '/user/verify-email/[redacted]/[redacted]',
    );
    expect(redactUrl('/user/reset-password/code1')).toBe('/user/reset-password/[redacted]');
    expect(redactUrl('/fleets/12')).toBe('/fleets/12');
  });
});

describe('request logs', () => {
  it('never contain API keys, tokens or the Authorization header', async () => {
    const lines: string[] = [];
    const app = createApp({
      logLevel: 'info',
      logStream: { write: (line) => void lines.push(line) },
      resolveActor: async () => anonymous,
    });
    app.get('/v7/device', { config: { access: 'public' } }, async (request) => {
      // Code that logs headers for a diagnosis must not leak credentials either.
      request.log.warn({ headers: request.headers, req: request }, 'diagnosis');
      return { d: [] };
    });
    app.get('/broken', { config: { access: 'public' } }, async () => {
      throw new Error('exploded');
    });
    await app.inject({
      url: '/v7/device?apikey=SECRET-ONE&$top=1&token=SECRET-TWO',
      headers: { authorization: 'Bearer SECRET-THREE', cookie: 'session=SECRET-FOUR' },
    });
    await app.inject({
      url: '/broken?access_token=SECRET-FIVE',
      headers: { authorization: 'Bearer SECRET-SIX' },
    });
    await app.inject({ url: '/user/v1/invitation/SECRET-SEVEN', method: 'POST' });
    const log = lines.join('');
    expect(log).toContain('$top=1');
    expect(log).toContain('exploded');
    expect(log).toContain('[redacted]');
    expect(log).not.toMatch(/SECRET-/);
  });
});
