// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { OpenFeature } from '@openfeature/web-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientProvider } from '../../api/client.js';
import { createFakeApi } from '../../test-support/fake-api.js';
import { useAppsEnabled } from '../../ui/useAppsEnabled.js';
import { refreshFeatureFlags } from './api-provider.js';
import { useFeatureFlagProvider } from './api-start.js';

afterEach(async () => {
  cleanup();
  await OpenFeature.clearProviders();
});

const Probe = () => {
  useFeatureFlagProvider();
  return <p>{useAppsEnabled() ? 'apps shown' : 'apps hidden'}</p>;
};

describe('the console flag provider', { timeout: 30_000 }, () => {
  it('reads the flags for the signed-in user through OpenFeature, and again on refresh', async () => {
    const api = createFakeApi({}, { userId: 7 });
    let apps = true;
    const asked: string[] = [];
    api.on('GET', '/feature-flags/v1', (_body, url) => {
      asked.push(url.search);
      return { status: 200, body: { apps } };
    });
    render(
      <ClientProvider client={api.client}>
        <Probe />
      </ClientProvider>,
    );
    expect(await screen.findByText('apps shown')).toBeTruthy();
    apps = false;
    await act(() => refreshFeatureFlags());
    expect(await screen.findByText('apps hidden')).toBeTruthy();
    expect(asked.length).toBeGreaterThanOrEqual(2);
  });

  it('keeps the default (off) when the flags cannot be read', async () => {
    const api = createFakeApi({}, { userId: 7 });
    api.on('GET', '/feature-flags/v1', () => ({ status: 503, text: 'unavailable' }));
    render(
      <ClientProvider client={api.client}>
        <Probe />
      </ClientProvider>,
    );
    expect(await screen.findByText('apps hidden')).toBeTruthy();
  });
});
