import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { fleetsPage } from '../support/pages/fleets-page.js';

describe('batch actions on the fleet list', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
  });

  it('selects two fleets and deletes them after confirming', async () => {
    const owner = await registerUser('batch');
    const keptId = await createFleet(owner, 'Batch-Keep');
    const removedIds = [
      await createFleet(owner, 'Batch-Remove-One'),
      await createFleet(owner, 'Batch-Remove-Two'),
    ];
    const page = await newPage(browser);
    await logInAs(page, owner);
    const fleets = fleetsPage(page);
    await fleets.card('Batch-Keep').waitFor();

    await fleets.startSelection();
    await fleets.select('Batch-Remove-One');
    await fleets.select('Batch-Remove-Two');
    expect(await fleets.selectedCount().textContent()).toBe('2 selected');
    // The owner administers the organization: every action but rename (two selected) is open.
    const toolbar = fleets.batchToolbar();
    const deleteButton = toolbar.getByRole('button', { name: 'Delete' });
    await expect.poll(() => deleteButton.isEnabled()).toBe(true);
    expect(await toolbar.getByRole('button', { name: 'Rename' }).isDisabled()).toBe(true);
    // Ticking a box does not open the fleet.
    expect(new URL(page.url()).pathname).toBe('/fleets');
    await page.screenshot({ path: 'data/e2e-screens/fleet-batch-selection.png', fullPage: true });

    await toolbar.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete 2 fleets?' });
    await dialog.getByText('Batch-Remove-Two').waitFor();
    // The dialog's fade-in is fast-forwarded for the picture.
    await page.screenshot({
      path: 'data/e2e-screens/fleet-batch-delete.png',
      animations: 'disabled',
    });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await fleets.batchDelete('2');
    await page.getByText('Deleted 2 fleets').waitFor();
    await fleets.card('Batch-Remove-One').waitFor({ state: 'detached' });
    await fleets.card('Batch-Remove-Two').waitFor({ state: 'detached' });
    await fleets.card('Batch-Keep').waitFor();
    expect(await fleets.selectedCount().textContent()).toBe('0 selected');

    const remaining = await owner.client.pine.get({
      resource: 'application',
      options: { $select: ['id'], $filter: { id: { $in: [keptId, ...removedIds] } } },
    });
    expect(remaining.map((row) => row.id)).toEqual([keptId]);
    await page.context().close();
  });
});
