import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, logInAs, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';

// Defects a new user met in the console: the built-in docs in a real layout, and the
// "Page not found" page with and without the console's shell.
describe('console copy and layout', () => {
  let browser: Browser;
  let user: ApiUser;

  beforeAll(async () => {
    browser = await launchBrowser();
    user = await registerUser('copy');
  });
  afterAll(async () => {
    await browser?.close();
  });

  // Screenshots to look at, when FLOTILLA_E2E_SCREENSHOTS names a folder.
  const shot = async (page: Page, name: string): Promise<void> => {
    const dir = process.env.FLOTILLA_E2E_SCREENSHOTS;
    if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
  };

  it('flows the docs paragraphs and scrolls wide code blocks instead of clipping them', async () => {
    const page = await newPage(browser);
    await logInAs(page, user);
    await page.goto('/docs/getting-started');
    const article = page.locator('article');
    await article.locator('pre').first().waitFor();
    await shot(page, 'docs-top');
    await article.locator('pre').first().scrollIntoViewIfNeeded();
    await shot(page, 'docs-code');
    const layout = await page.evaluate(() => {
      const root = document.querySelector('article');
      const right = root?.getBoundingClientRect().right ?? 0;
      const blocks = Array.from(document.querySelectorAll('article pre'), (pre) => ({
        overflowX: getComputedStyle(pre).overflowX,
        inside: pre.getBoundingClientRect().right <= right + 0.5,
        wide: pre.scrollWidth > pre.clientWidth,
      }));
      return {
        blocks,
        breaks: document.querySelectorAll('article p br').length,
        pageScrolls: document.documentElement.scrollWidth > window.innerWidth,
      };
    });
    expect(layout.breaks).toBe(0);
    expect(layout.pageScrolls).toBe(false);
    expect(layout.blocks.length).toBeGreaterThan(0);
    // Every block stays inside the article; a wider one scrolls on its own.
    for (const block of layout.blocks) {
      expect(block.inside).toBe(true);
      if (block.wide) expect(block.overflowX).toBe('auto');
    }
  });

  it('shows "Page not found" inside the shell when signed in, bare when not', async () => {
    const page = await newPage(browser);
    await logInAs(page, user);
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    expect(await page.title()).toBe('Page not found | Flotilla');
    await shot(page, 'not-found-signed-in');

    const guest = await newPage(browser);
    await guest.goto('/no/such/page');
    await guest.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await guest.getByRole('navigation', { name: 'Main navigation' }).count()).toBe(0);
    await shot(guest, 'not-found-guest');
  });
});
