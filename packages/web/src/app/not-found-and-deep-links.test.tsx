// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi, type FakeSession } from '../test-support/fake-api.js';
import { answerBoot, renderConsoleAt } from '../test-support/render-console.js';
import { answerDevicePageFeeds } from '../test-support/device-page-feeds.js';
import { deviceDetail } from '../test-support/device-fixtures.js';

// The console's own route table at an unknown path and at a deep link, against the fake API.
const renderAt = (path: string, session: FakeSession | null) => {
  const api = createFakeApi({ device: [deviceDetail()] }, session);
  answerBoot(api);
  answerDevicePageFeeds(api, deviceDetail().uuid);
  return renderConsoleAt(api.client, path).router;
};

const notFound = () =>
  screen.findByRole('heading', { name: 'Page not found' }, { timeout: 10_000 });

describe('unknown pages and deep links', { timeout: 20_000 }, () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  // First in the file: the router warns once per module.
  it('opens a lazy deep route without the router warning of a missing loading screen', async () => {
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    renderAt(`/devices/${deviceDetail().uuid}`, {});
    expect(
      await screen.findByRole('heading', { name: 'brave-otter', level: 1 }, { timeout: 10_000 }),
    ).toBeTruthy();
    const logged = [...warn.mock.calls, ...error.mock.calls].map((call) => String(call[0]));
    expect(logged.filter((text) => text.includes('HydrateFallback'))).toEqual([]);
  });

  it('shows "Page not found" inside the console shell to a signed-in user', async () => {
    renderAt('/no/such/page', {});
    expect(await notFound()).toBeTruthy();
    expect(
      await screen.findByRole('navigation', { name: 'Main navigation' }, { timeout: 10_000 }),
    ).toBeTruthy();
  });

  it('shows the bare page to a guest', async () => {
    const router = renderAt('/no/such/page', null);
    expect(await notFound()).toBeTruthy();
    await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
    expect(router.state.location.pathname).toBe('/no/such/page');
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
  });
});
