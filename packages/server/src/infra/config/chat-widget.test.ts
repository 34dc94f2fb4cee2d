import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('chat widget configuration', () => {
  it('has no widget by default', () => {
    expect(loadConfig({}).chatWidget).toBeUndefined();
  });

  it("reads Chatwoot's origin and website token", () => {
    expect(
      loadConfig({
        FLOTILLA_CHATWOOT_URL: 'https://chat.example.com/',
        FLOTILLA_CHATWOOT_WEBSITE_TOKEN: 'hV8nYqZpT3xK2mLw',
      }).chatWidget,
    ).toEqual({
      provider: 'chatwoot',
      url: 'https://chat.example.com',
      websiteToken: 'hV8nYqZpT3xK2mLw',
    });
  });

  it('refuses one setting without the other, and a token that cannot be one', () => {
    expect(() => loadConfig({ FLOTILLA_CHATWOOT_URL: 'https://chat.example.com' })).toThrow(
      /set both FLOTILLA_CHATWOOT_URL and FLOTILLA_CHATWOOT_WEBSITE_TOKEN, or neither/,
    );
    expect(() =>
      loadConfig({
        FLOTILLA_CHATWOOT_URL: 'https://chat.example.com',
        FLOTILLA_CHATWOOT_WEBSITE_TOKEN: "x' onload='alert(1)",
      }),
    ).toThrow(/FLOTILLA_CHATWOOT_WEBSITE_TOKEN: must be a Chatwoot website inbox token/);
  });
});
