import { describe, expect, it } from 'vitest';
import { clientCredentials } from './client-credentials.js';

const basic = (raw: string) => `Basic ${Buffer.from(raw).toString('base64')}`;

describe('clientCredentials', () => {
  it('reads form-encoded HTTP Basic credentials (RFC 6749 section 2.3.1)', () => {
    expect(clientCredentials(basic('my+app:s%3Acret'), {})).toEqual({
      clientId: 'my app',
      secret: 's:cret',
    });
    expect(clientCredentials(basic('abc:'), { client_id: 'abc' })).toEqual({
      clientId: 'abc',
      secret: null,
    });
  });

  it('reads the body without Basic credentials', () => {
    expect(clientCredentials(undefined, { client_id: 'abc', client_secret: 'x' })).toEqual({
      clientId: 'abc',
      secret: 'x',
    });
    expect(clientCredentials('Bearer token', { client_id: 'abc' })).toEqual({
      clientId: 'abc',
      secret: null,
    });
  });

  it('refuses ids that could not be a client id (control characters, too long, bad escapes)', () => {
    for (const raw of ['a\u0000b:x', `${'a'.repeat(101)}:x`, '%E0%A4%A:x', ':x', 'no-colon']) {
      expect(() => clientCredentials(basic(raw), {}), raw).toThrow(
        /malformed Basic client credentials/,
      );
    }
  });

  it('refuses credentials given both ways unless they agree, and a missing client id', () => {
    expect(() => clientCredentials(basic('abc:x'), { client_id: 'other' })).toThrow(/differs/);
    expect(() => clientCredentials(basic('abc:x'), { client_secret: 'x' })).toThrow(/twice/);
    expect(() => clientCredentials(undefined, {})).toThrow(/client_id is required/);
  });
});
