import type { Page } from 'playwright-core';

export const fleetsPage = (page: Page) => ({
  open: () => page.goto('/fleets'),
  heading: () => page.getByRole('heading', { name: 'Fleets', level: 1 }),
  emptyState: () => page.getByText('No fleets yet'),
  card: (name: string) =>
    page.getByRole('link').filter({ has: page.getByRole('heading', { name }) }),
  createFleet: async (name: string, deviceType = 'Raspberry Pi 4 (using 64bit OS)') => {
    await page
      .getByRole('button', { name: /Create fleet/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: 'Create fleet' });
    await dialog.getByLabel('Fleet name').fill(name);
    const picker = dialog.getByLabel('Default device type');
    await picker.fill(deviceType.slice(0, 12));
    await page.getByRole('option', { name: deviceType }).click();
    await dialog.getByRole('button', { name: 'Create new fleet' }).click();
  },
  // Selection mode and its batch actions.
  startSelection: () => page.getByRole('button', { name: 'Select', exact: true }).click(),
  select: (name: string) => page.getByRole('checkbox', { name: `Select ${name}` }).check(),
  batchToolbar: () => page.getByRole('toolbar', { name: /Batch actions/ }),
  selectedCount: () => page.getByRole('toolbar', { name: /Batch actions/ }).getByRole('status'),
  batchDelete: async (confirmText: string) => {
    await page
      .getByRole('toolbar', { name: /Batch actions/ })
      .getByRole('button', { name: 'Delete' })
      .click();
    const dialog = page.getByRole('dialog', { name: /^Delete / });
    await dialog.getByLabel(`Type "${confirmText}" to confirm`).fill(confirmText);
    await dialog.getByRole('button', { name: /^Delete / }).click();
    await dialog.waitFor({ state: 'hidden' });
  },
});
