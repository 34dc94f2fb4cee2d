import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { baseUrl, cspViolations, launchBrowser, newPage } from '../support/browser.js';
import { restoreConsole, simulateNextBuild } from '../support/console-build.js';
import { applicationPage } from '../support/pages/application-page.js';
import { fleetsPage } from '../support/pages/fleets-page.js';

describe('the console over HTTP', () => {
  it('sends index.html revalidated and the bundle precompressed with long caching', async () => {
    const index = await fetch(`${baseUrl()}/fleets`, {
      headers: { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('etag')).toBeTruthy();
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await index.text();
    const entry = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
    expect(entry).toMatch(/^\/assets\/index-.+\.js$/);
    // Node's fetch decompresses the body itself; the headers say what was sent.
    const script = await fetch(`${baseUrl()}${entry}`, {
      headers: { 'accept-encoding': 'br' },
    });
    expect(script.headers.get('content-encoding')).toBe('br');
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(script.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(script.headers.get('sourcemap')).toBeNull();
    expect(Number(script.headers.get('content-length'))).toBeGreaterThan(0);
    expect((await script.text()).length).toBeGreaterThan(0);
    expect((await fetch(`${baseUrl()}${entry}.map`)).status).toBe(404);
  });
});

describe('the console in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
  });
  afterEach(async () => {
    await restoreConsole();
  });

  it('enforces its Content-Security-Policy, and the browser tests notice a violation', async () => {
    const page = await newPage(browser, { expectCspViolations: true });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Log in', exact: true }).waitFor();
    expect(cspViolations(page)).toEqual([]);
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'document.body.dataset.inline = "ran"';
      document.body.append(script);
    });
    await expect.poll(() => cspViolations(page).length).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.body.dataset.inline)).toBeUndefined();
    await page.context().close();
  });

  const openFleetList = async (fleetName: string) => {
    const owner = await registerUser('upgrade');
    const fleetId = await createFleet(owner, fleetName);
    const page = await newPage(browser);
    await logInAs(page, owner);
    await fleetsPage(page).card(fleetName).waitFor();
    return { page, fleetId };
  };

  // Counts documents loaded from now on, and the bundle files the server did not have.
  const watch = (page: Page) => {
    const seen = { documents: 0, missingAssets: [] as string[] };
    page.on('load', () => {
      seen.documents += 1;
    });
    page.on('response', (response) => {
      if (response.status() === 404 && response.url().includes('/assets/')) {
        seen.missingAssets.push(new URL(response.url()).pathname);
      }
    });
    return seen;
  };

  it('keeps an open tab working after an upgrade that kept the previous chunks', async () => {
    const { page, fleetId } = await openFleetList('Upgrade-Kept');
    const seen = watch(page);
    await simulateNextBuild({ keepPrevious: true });
    await fleetsPage(page).card('Upgrade-Kept').click();
    await page.waitForURL(`**/fleets/${fleetId}**`);
    await applicationPage(page).heading('Upgrade-Kept').waitFor();
    expect(seen).toEqual({ documents: 0, missingAssets: [] });
    await page.context().close();
  });

  it('reloads an open tab once, at the page it was going to, when its chunks are gone', async () => {
    const { page, fleetId } = await openFleetList('Upgrade-Gone');
    const seen = watch(page);
    await simulateNextBuild({ keepPrevious: false });
    await fleetsPage(page).card('Upgrade-Gone').click();
    await page.waitForURL(`**/fleets/${fleetId}**`);
    await applicationPage(page).heading('Upgrade-Gone').waitFor();
    expect(seen.missingAssets.length).toBeGreaterThan(0);
    expect(seen.documents).toBe(1);
    // The reloaded page runs the new build, and nothing is missing any more.
    const scripts = await page.evaluate(() =>
      Array.from(document.querySelectorAll('script[src]')).map((script) =>
        script.getAttribute('src'),
      ),
    );
    expect(scripts.every((src) => src?.endsWith('-next.js'))).toBe(true);
    expect(await page.getByText('Something went wrong', { exact: false }).count()).toBe(0);
    await page.context().close();
  });
});
