import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';

// Organization → Webhooks: an administrator registers an endpoint (a receiver of this test on
// loopback, which the test server allows), sees its delivery and delivers it again.
describe('webhooks', () => {
  let browser: Browser;
  let owner: ApiUser;
  let receiver: Server;
  let receiverUrl = '';
  const received: { id: string; body: string }[] = [];
  let arrived: () => void = () => undefined;

  const nextArrival = () =>
    new Promise<void>((resolve) => {
      arrived = resolve;
    });

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('webhook-owner');
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push({ id: String(request.headers['flotilla-delivery']), body });
        response.end('thanks');
        arrived();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address();
    if (typeof address !== 'object' || address === null) throw new Error('no receiver port');
    receiverUrl = `http://127.0.0.1:${address.port}/flotilla`;
  });
  afterAll(async () => {
    await browser?.close();
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('registers a webhook, shows its delivery and delivers it again', async () => {
    const fleetId = await createFleet(owner, 'hooked-fleet');
    const [organization] = await owner.client.pine.get({
      resource: 'organization',
      options: { $select: ['id'], $orderby: { id: 'asc' }, $top: 1 },
    });
    const page = await newPage(browser);
    await logInAs(page, owner);
    await page.goto(`/orgs/${organization?.id ?? 0}`);
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    await page.getByText('No webhooks yet').waitFor();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Endpoint URL').fill(receiverUrl);
    await dialog.getByLabel('variable.changed').check();
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    await dialog.getByText('Copy the signing secret now').waitFor();
    expect(await dialog.getByText(/^whsec_/).textContent()).toMatch(/^whsec_/);
    await page.screenshot({ path: 'data/e2e-screens/webhook-secret.png', fullPage: true });
    await dialog.getByRole('button', { name: 'Done' }).click();

    const first = nextArrival();
    await owner.client.pine.post({
      resource: 'application_environment_variable',
      body: { application: fleetId, name: 'HOOKED', value: '1' },
    });
    await first;
    expect(JSON.parse(received[0]?.body ?? '{}')).toMatchObject({
      type: 'variable.changed',
      data: { name: 'HOOKED' },
    });

    await page.getByRole('button', { name: 'Deliveries', exact: true }).click();
    const deliveries = page.getByRole('table', { name: 'Deliveries' });
    await deliveries.getByText('succeeded').waitFor();
    await deliveries.getByRole('cell', { name: '200' }).waitFor();
    await page.screenshot({ path: 'data/e2e-screens/webhook-deliveries.png', fullPage: true });

    const second = nextArrival();
    await deliveries.getByRole('button', { name: 'Redeliver' }).click();
    await second;
    expect(received).toHaveLength(2);
    expect(received[1]?.id).toBe(received[0]?.id);
  });
});
