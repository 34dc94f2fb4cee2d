import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ApiUser, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { loginPage } from '../support/pages/auth-pages.js';

// The product's own services: the status page showing an incident a platform administrator
// posts, and a feature flag an administrator switches on for one user (the Apps section).
describe('status page and feature flags', () => {
  let browser: Browser;
  let member: ApiUser;
  let memberName: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    member = await registerUser('flagged');
    const whoami = await member.client.auth.whoami();
    if (whoami.actorType !== 'user') throw new Error('not a user');
    memberName = whoami.username;
  });
  afterAll(async () => {
    await browser?.close();
  });

  const adminPage = async (): Promise<Page> => {
    const page = await newPage(browser);
    await loginPage(page).open();
    await loginPage(page).logIn(inject('adminEmail'), inject('adminPassword'));
    await page.getByRole('heading', { name: 'Fleets', level: 1 }).waitFor();
    return page;
  };

  it('shows an incident a platform administrator posts, from the header dot', async () => {
    const page = await adminPage();
    await page.goto('/admin/status');
    const form = page.getByRole('form', { name: 'Post a notice' });
    await form.getByRole('textbox', { name: 'Title' }).fill('Image builds are delayed');
    await form.getByRole('textbox', { name: 'Message' }).fill('Builds queue longer than usual.');
    await form.getByRole('button', { name: 'Post' }).click();
    await page.getByRole('cell', { name: 'Image builds are delayed' }).waitFor();
    // The header's dot follows the status (polled; the page's own status query is fresh).
    await page.getByRole('link', { name: /^System status: / }).click();
    await page.getByRole('heading', { name: 'Status', level: 1 }).waitFor();
    const notices = page.getByRole('region', { name: 'Incidents and maintenance' });
    await notices.getByText('Image builds are delayed').waitFor();
    await notices.getByText('Builds queue longer than usual.').waitFor();
    await page.getByRole('region', { name: 'Components' }).getByText('Database').waitFor();
    await page.screenshot({ path: 'data/e2e-screens/status-incident.png', fullPage: true });
    // Resolved, it leaves the status page.
    await page.goto('/admin/status');
    await page.getByRole('button', { name: 'Resolve' }).first().click();
    await page.getByText('Resolved').first().waitFor();
    await page.goto('/status');
    await page.getByRole('heading', { name: 'Status', level: 1 }).waitFor();
    await page.getByText('No open incidents or maintenance.').waitFor();
    await page.context().close();
  });

  it('switches the Apps section on for one user from Admin → Feature flags', async () => {
    const memberPage = await newPage(browser);
    await loginPage(memberPage).open();
    await loginPage(memberPage).logIn(member.email, member.password);
    await memberPage.getByRole('heading', { name: 'Fleets', level: 1 }).waitFor();
    const nav = memberPage.getByRole('navigation', { name: 'Main navigation' });
    expect(await nav.getByRole('link', { name: 'Apps' }).count()).toBe(0);

    const page = await adminPage();
    await page.goto('/admin/feature-flags');
    const flag = page.getByRole('region', { name: 'Flag apps' });
    await flag.getByRole('combobox', { name: 'For' }).click();
    await page.getByRole('option', { name: 'A user' }).click();
    await flag.getByRole('textbox', { name: 'Username' }).fill(memberName);
    await flag.getByRole('button', { name: 'Save' }).click();
    await flag.getByRole('cell', { name: `User ${memberName}` }).waitFor();
    await page.screenshot({ path: 'data/e2e-screens/admin-feature-flags.png', fullPage: true });
    await page.context().close();

    // The member's console reads the flag when it starts.
    await memberPage.reload();
    await memberPage.getByRole('heading', { name: 'Fleets', level: 1 }).waitFor();
    await nav.getByRole('link', { name: 'Apps' }).waitFor();
    await memberPage.context().close();
  });
});
