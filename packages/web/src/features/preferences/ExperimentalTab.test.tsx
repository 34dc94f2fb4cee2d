// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClientProvider } from '../../api/client.js';
import { bootQuery } from '../../api/session/api-boot.js';
import { consoleRouterAt } from '../../test-support/render-console.js';
import { createFakeApi, type FakeSession } from '../../test-support/fake-api.js';
import { ToastProvider } from '../../ui/toasts.js';
import {
  headerColorValues,
  setHeaderColor,
  setNavigationStripes,
} from '../../ui/local-preferences.js';
import { setAppsEnabled } from '../../ui/useAppsEnabled.js';
import { setDeploymentTag } from '../../ui/deployment-tag.js';
import { ownUserRow, userProfileRow } from '../../test-support/profile-fixtures.js';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  window.localStorage.clear();
  setHeaderColor('default');
  setNavigationStripes(false);
  setAppsEnabled(false);
  setDeploymentTag(null);
});

const firstLoad = { timeout: 15_000 };

const renderAt = (path: string, session: FakeSession = {}, deployment: string | null = null) => {
  const api = createFakeApi(
    {
      application: [],
      application_type: [],
      organization: [],
      user_profile: [userProfileRow()],
      user: [ownUserRow()],
    },
    session,
  );
  api.on('GET', '/config', () => ({ status: 200, body: { deployment } }));
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: 7, username: 'ada', email: 'ada@x.test' },
  }));
  render(
    <ClientProvider client={api.client}>
      <ToastProvider>
        <QueryClientProvider
          client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
        >
          <RouterProvider router={consoleRouterAt(path)} />
        </QueryClientProvider>
      </ToastProvider>
    </ClientProvider>,
  );
  return api;
};

const rgb = (hex: string): string => {
  const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
};

const headerBackground = (): string => getComputedStyle(screen.getByRole('banner')).backgroundColor;

describe('Preferences → Experimental', { timeout: 30_000 }, () => {
  it('changes the header colour, the navigation stripes and the apps link at once', async () => {
    renderAt('/preferences/experimental');
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Header colour', undefined, firstLoad));
    await user.click(await screen.findByRole('option', { name: 'Green' }));
    await waitFor(() => expect(headerBackground()).toBe(rgb(headerColorValues.green)));
    expect(window.localStorage.getItem('flotilla.experimental.headerColor')).toBe('green');

    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(nav.getAttribute('data-stripes')).toBeNull();
    await user.click(screen.getByLabelText('Show navigation stripes'));
    expect(nav.getAttribute('data-stripes')).toBe('on');

    expect(within(nav).queryByRole('link', { name: 'Apps' })).toBeNull();
    await user.click(screen.getByLabelText('Display apps'));
    expect(within(nav).getByRole('link', { name: 'Apps' })).toBeTruthy();
  });

  it('gives platform administrators a red header by default', async () => {
    renderAt('/preferences/experimental', { permissions: ['admin.home'] });
    await screen.findByLabelText('Header colour', undefined, firstLoad);
    expect(headerBackground()).toBe(rgb(headerColorValues.red));
  });

  it('says when the browser keeps nothing, and applies the choice for the page', async () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    renderAt('/preferences/experimental');
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Show navigation stripes', undefined, firstLoad));
    expect(await screen.findByText(/does not let Flotilla keep settings/)).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(nav.getAttribute('data-stripes')).toBe('on');
  });

  it('stripes the navigation of a tagged installation by default, and names the tag', async () => {
    window.localStorage.clear();
    const api = renderAt('/preferences/experimental', {}, 'staging');
    // The boot reads the deployment tag from /config, as before the app shows.
    await new QueryClient().fetchQuery(bootQuery(api.client));
    const user = userEvent.setup();
    const toggle = await screen.findByLabelText('Show navigation stripes', undefined, firstLoad);
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(nav.getAttribute('data-stripes')).toBe('on');
    expect(screen.getByRole('banner').getAttribute('data-stripes')).toBe('on');
    expect(within(screen.getByRole('banner')).getByLabelText('Deployment: staging')).toBeTruthy();
    expect(screen.getByText('On by default on this staging installation.')).toBeTruthy();
    await waitFor(() => expect(document.title).toMatch(/Flotilla \[staging\]$/));
    // The user's own choice wins over the default.
    await user.click(toggle);
    expect(nav.getAttribute('data-stripes')).toBeNull();
    expect(screen.getByRole('banner').getAttribute('data-stripes')).toBeNull();
  });

  it('shows no stripes and no tag without a deployment tag', async () => {
    window.localStorage.clear();
    const api = renderAt('/preferences/experimental');
    await new QueryClient().fetchQuery(bootQuery(api.client));
    await screen.findByLabelText('Show navigation stripes', undefined, firstLoad);
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(nav.getAttribute('data-stripes')).toBeNull();
    expect(screen.getByRole('banner').getAttribute('data-stripes')).toBeNull();
    expect(within(screen.getByRole('banner')).queryByLabelText(/^Deployment/)).toBeNull();
    expect(screen.queryByText(/On by default/)).toBeNull();
  });
});
