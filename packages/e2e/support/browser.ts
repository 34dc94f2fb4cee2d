import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { inject, onTestFinished } from 'vitest';
import { chromiumLaunchOptions } from './chromium.js';

// The browser run's one Chromium (started by the global setup) when there is one: connecting
// takes milliseconds where a launch takes seconds on a busy machine. Each scenario still gets a
// fresh context (newPage), and close() ends this file's contexts and connection, not Chromium.
// Elsewhere (the contract project's browser tests) a Chromium of the file's own.
export const launchBrowser = (): Promise<Browser> => {
  const endpoint = inject('chromiumEndpoint');
  return endpoint ? chromium.connect(endpoint) : chromium.launch(chromiumLaunchOptions);
};

export const baseUrl = (): string => inject('baseUrl').replace('127.0.0.1', 'localhost');

const cspViolationsOf = new WeakMap<BrowserContext, string[]>();

// The Content-Security-Policy violations the pages of this page's context reported so far.
export const cspViolations = (page: Page): readonly string[] =>
  cspViolationsOf.get(page.context()) ?? [];

// Every page of the context reports CSP violations to the console: the browser's own
// "Refused to ..." messages, and, from an init script, each `securitypolicyviolation` event.
const watchCsp = async (context: BrowserContext): Promise<string[]> => {
  const violations: string[] = [];
  cspViolationsOf.set(context, violations);
  context.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy|^CSP violation/.test(text)) violations.push(text);
  });
  await context.addInitScript(() => {
    document.addEventListener(
      'securitypolicyviolation',
      (event) => {
        console.warn(
          `CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} ` +
            `(${event.sourceFile}:${event.lineNumber})`,
        );
      },
      true,
    );
  });
  return violations;
};

export type PageOptions = {
  // For the test that provokes a violation on purpose; every other test fails on one.
  expectCspViolations?: boolean;
  // The cookie banner is answered unless 'unanswered'.
  cookieBanner?: 'answered' | 'unanswered';
  // Another server than the run's (a test that starts its own).
  baseUrl?: string;
};

// A fresh browser context per scenario (its own storage and cookies), cookie banner answered
// unless `cookieBanner: 'unanswered'`.
// The test fails if any of its pages violated the Content-Security-Policy.
export const newPage = async (browser: Browser, options: PageOptions = {}): Promise<Page> => {
  const context = await browser.newContext({
    baseURL: options.baseUrl ?? baseUrl(),
    viewport: { width: 1366, height: 860 },
  });
  const violations = await watchCsp(context);
  if (!options.expectCspViolations) {
    onTestFinished(() => {
      if (violations.length > 0) {
        throw new Error(`Content-Security-Policy violations:\n${violations.join('\n')}`);
      }
    });
  }
  if (options.cookieBanner !== 'unanswered') {
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
