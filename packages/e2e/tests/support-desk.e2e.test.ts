import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { type ApiUser, logInAs, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';

// The built-in help desk from both sides. A user opens a ticket with an attachment
// from the support drawer, a platform administrator (who works the queue as support agents do)
// answers it in Admin → Support queue, and the user sees the answer on the ticket's page.
describe('the help desk', () => {
  let browser: Browser;
  let requester: ApiUser;

  beforeAll(async () => {
    browser = await launchBrowser();
    requester = await registerUser('ticketer');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a ticket with an attachment is answered by an agent and the user sees the reply', async () => {
    const user = await newPage(browser);
    await logInAs(user, requester);
    await user.getByRole('button', { name: /Help and status/ }).click();
    await user.getByRole('button', { name: 'Create a ticket' }).click();
    const form = user.getByRole('dialog', { name: 'Create a support ticket' });
    await form.getByLabel('Subject').fill('Device will not update');
    await form.getByLabel('Description').fill('It stays on the old release.');
    await form.getByRole('combobox', { name: 'Area' }).click();
    await user.getByRole('option', { name: 'Devices' }).click();
    await form.getByLabel('CC').fill('ops@example.com ,  lead@example.com');
    await form.getByLabel('Attachments').setInputFiles({
      name: 'supervisor.log',
      mimeType: 'text/plain',
      buffer: Buffer.from('update failed: no space left'),
    });
    await form.getByText('supervisor.log').waitFor();
    await form.getByRole('button', { name: 'Submit ticket' }).click();
    await user.getByRole('heading', { name: /Device will not update/ }).waitFor();
    await user.getByRole('link', { name: 'supervisor.log' }).waitFor();
    const ticketUrl = user.url();

    const agent = await newPage(browser);
    await agent.goto('/login');
    await agent.getByLabel('E-mail').fill(inject('adminEmail'));
    await agent.getByLabel('Password').fill(inject('adminPassword'));
    await agent.getByRole('button', { name: 'Log in', exact: true }).click();
    await agent.getByRole('heading', { name: 'Fleets', level: 1 }).waitFor();
    await agent.getByRole('button', { name: 'Account menu' }).click();
    await agent.getByRole('menuitem', { name: 'Support queue' }).click();
    await agent.getByRole('link', { name: 'Device will not update' }).click();
    await agent.getByText('It stays on the old release.').waitFor();
    await agent.getByLabel('Reply to the requester').fill('Free some space, then update again.');
    await agent.getByRole('button', { name: 'Send reply' }).click();
    await agent.getByText('Reply sent and mailed to 3').waitFor();
    await agent.context().close();

    await user.goto(ticketUrl);
    await user.getByText('Free some space, then update again.').waitFor();
    await user.getByText('Awaiting your reply').first().waitFor();
    await user.screenshot({ path: 'data/e2e-screens/support-ticket.png', fullPage: true });
    await user.context().close();
  });
});
