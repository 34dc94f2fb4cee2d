import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('social sign-in configuration', () => {
  it('offers no provider by default', () => {
    expect(loadConfig({}).socialAuth).toEqual({ github: undefined, google: undefined });
  });

  it("reads each provider's client and the real endpoints unless overridden", () => {
    const socialAuth = loadConfig({
      FLOTILLA_GITHUB_CLIENT_ID: 'gh-id',
      FLOTILLA_GITHUB_CLIENT_SECRET: 'gh-secret',
      FLOTILLA_GITHUB_API_URL: 'https://ghe.example.com/api/v3/',
      FLOTILLA_GOOGLE_CLIENT_ID: 'g-id',
      FLOTILLA_GOOGLE_CLIENT_SECRET: 'g-secret',
      FLOTILLA_GOOGLE_ISSUER: 'http://127.0.0.1:4000/',
    }).socialAuth;
    expect(socialAuth).toEqual({
      github: {
        clientId: 'gh-id',
        clientSecret: 'gh-secret',
        authorizeUrl: 'https://github.com/login/oauth/authorize',
        tokenUrl: 'https://github.com/login/oauth/access_token',
        apiUrl: 'https://ghe.example.com/api/v3',
      },
      google: { clientId: 'g-id', clientSecret: 'g-secret', issuer: 'http://127.0.0.1:4000' },
    });
  });

  it('refuses a client id without its secret, and the reverse', () => {
    expect(() => loadConfig({ FLOTILLA_GITHUB_CLIENT_ID: 'gh-id' })).toThrow(
      'set both FLOTILLA_GITHUB_CLIENT_ID and FLOTILLA_GITHUB_CLIENT_SECRET, or neither',
    );
    expect(() => loadConfig({ FLOTILLA_GOOGLE_CLIENT_SECRET: 'g-secret' })).toThrow(
      'set both FLOTILLA_GOOGLE_CLIENT_ID and FLOTILLA_GOOGLE_CLIENT_SECRET, or neither',
    );
  });
});
