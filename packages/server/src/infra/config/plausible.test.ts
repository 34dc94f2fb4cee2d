import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('Plausible configuration', () => {
  it('sends nowhere by default', () => {
    expect(loadConfig({}).plausible).toBeUndefined();
  });

  it('reads the server without its trailing slash, and the site domain', () => {
    expect(
      loadConfig({
        FLOTILLA_PLAUSIBLE_URL: 'https://plausible.example.com/',
        FLOTILLA_PLAUSIBLE_DOMAIN: 'console.example.com',
      }).plausible,
    ).toEqual({ url: 'https://plausible.example.com', domain: 'console.example.com' });
  });

  it('refuses one setting without the other, and a domain that is a URL', () => {
    expect(() => loadConfig({ FLOTILLA_PLAUSIBLE_URL: 'https://plausible.io' })).toThrow(
      /set both FLOTILLA_PLAUSIBLE_URL and FLOTILLA_PLAUSIBLE_DOMAIN, or neither/,
    );
    expect(() =>
      loadConfig({
        FLOTILLA_PLAUSIBLE_URL: 'https://plausible.io',
        FLOTILLA_PLAUSIBLE_DOMAIN: 'https://console.example.com/',
      }),
    ).toThrow(/FLOTILLA_PLAUSIBLE_DOMAIN: must be a site domain/);
  });
});
