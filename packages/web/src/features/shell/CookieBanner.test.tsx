// @vitest-environment jsdom
import type { PublicConfig } from '@flotilla/sdk/config';
import { useQuery } from '@tanstack/react-query';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import { shellKeys } from './query-keys.js';
import { cookieChoiceKey } from '../../ui/cookie-choice.js';
import { analyticsOf, cookieBannerNeeded, CookieBanner } from './CookieBanner.js';

beforeEach(() => window.localStorage.clear());
afterEach(cleanup);

const noAnalytics: PublicConfig = {
  deployment: null,
  deviceUrlsBase: 'devices.example.com',
  signupCodeRequired: false,
  supportedSocialProviders: [],
  analytics: null,
};

// Shows once the banner's /config query (shared by key) has its answer.
const ConfigLoaded = () => {
  const config = useQuery({ queryKey: shellKeys.config(), queryFn: () => noAnalytics });
  return config.isSuccess ? <p>config loaded</p> : null;
};

// The banner reads GET /config through the client, as in the console.
const renderBanner = (config: PublicConfig) => {
  const api = createFakeApi({});
  api.on('GET', '/config', () => ({ status: 200, body: config }));
  renderWithClient(
    api.client,
    <>
      <CookieBanner />
      <ConfigLoaded />
    </>,
  );
};

const stored = (): unknown => JSON.parse(window.localStorage.getItem(cookieChoiceKey) ?? 'null');

describe('analyticsOf', () => {
  it('reads the analytics adapter GET /config names, if any', () => {
    expect(analyticsOf({ analytics: null })).toBeNull();
    expect(analyticsOf({ deployment: null })).toBeNull();
    expect(analyticsOf({ analytics: '' })).toBeNull();
    expect(analyticsOf({ analytics: 42 })).toBeNull();
    expect(analyticsOf({ analytics: 'Plausible' })).toBe('Plausible');
  });
});

describe('cookieBannerNeeded', () => {
  it('asks once, and again only when analytics is offered after an essentials-only notice', () => {
    expect(cookieBannerNeeded(null, null)).toBe(true);
    expect(cookieBannerNeeded({ essentials: true, analytics: null }, null)).toBe(false);
    expect(cookieBannerNeeded({ essentials: true, analytics: null }, 'Plausible')).toBe(true);
    expect(cookieBannerNeeded({ essentials: true, analytics: false }, 'Plausible')).toBe(false);
  });
});

describe('CookieBanner', () => {
  it('speaks of essential storage only when no analytics adapter is configured', async () => {
    const user = userEvent.setup();
    renderBanner(noAnalytics);
    const banner = await screen.findByRole('region', { name: 'Cookies and storage' });
    expect(banner.textContent).toMatch(/only essential data/);
    expect(banner.textContent).toMatch(/Nothing tracks you/);
    expect(banner.textContent).not.toMatch(/analytics/i);
    expect(within(banner).queryByRole('button', { name: /analytics/i })).toBeNull();
    await user.click(within(banner).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('region', { name: 'Cookies and storage' })).toBeNull();
    expect(stored()).toEqual({ essentials: true, analytics: null });
  });

  it('offers essentials and analytics choices when an analytics adapter is configured', async () => {
    const user = userEvent.setup();
    renderBanner({ ...noAnalytics, analytics: 'Plausible' });
    const banner = await screen.findByRole('region', { name: 'Cookies and storage' });
    expect(banner.textContent).toMatch(/analytics \(Plausible\)/);
    await user.click(within(banner).getByRole('button', { name: 'Essentials only' }));
    expect(stored()).toEqual({ essentials: true, analytics: false });
  });

  it('stays hidden once answered', async () => {
    window.localStorage.setItem(
      cookieChoiceKey,
      JSON.stringify({ essentials: true, analytics: false }),
    );
    renderBanner(noAnalytics);
    await screen.findByText('config loaded');
    expect(screen.queryByRole('region', { name: 'Cookies and storage' })).toBeNull();
  });

  it('sits in the page flow, never floating over dialogs, toasts or rows', async () => {
    renderBanner(noAnalytics);
    const banner = await screen.findByRole('region', { name: 'Cookies and storage' });
    const position = window.getComputedStyle(banner).position;
    expect(['', 'static', 'relative']).toContain(position);
  });
});
