import { type Browser, chromium, type Page } from 'playwright-core';
import { inject } from 'vitest';

// Debian's Chromium, headless, with nothing reaching out to the network.
export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });

export const baseUrl = (): string => inject('baseUrl').replace('127.0.0.1', 'localhost');

// A fresh browser context per scenario (its own storage and cookies), cookie banner answered
// unless `cookieBanner: 'unanswered'`.
export const newPage = async (
  browser: Browser,
  { cookieBanner = 'answered' }: { cookieBanner?: 'answered' | 'unanswered' } = {},
): Promise<Page> => {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: 1366, height: 860 },
  });
  if (cookieBanner === 'answered') {
    await context.addInitScript(() => {
      window.localStorage.setItem(
        'flotilla.cookies',
        JSON.stringify({ essentials: true, analytics: null }),
      );
    });
  }
  return context.newPage();
};

export const uniqueEmail = (prefix: string): string =>
  `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@e2e.flotilla.test`;
