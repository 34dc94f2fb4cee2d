import type { Page } from 'playwright-core';

// The release list, a release's page and the fleet's release picker.
export const releasePages = (page: Page) => ({
  openList: (fleetId: number) => page.goto(`/fleets/${fleetId}/releases`),
  table: () => page.getByRole('table', { name: 'Releases' }),
  // The list's row of a release, found by its short commit.
  row: (commit: string) =>
    page
      .getByRole('table', { name: 'Releases' })
      .getByRole('row')
      .filter({
        hasText: commit.slice(0, 7),
      }),
  openRelease: (commit: string) =>
    page.getByRole('link', { name: commit.slice(0, 7), exact: true }).click(),
  summary: () => page.getByRole('region', { name: 'Release summary' }),
  openSettings: async () => {
    // The release's own tabs, below the fleet's.
    await page
      .getByRole('tablist', { name: 'Release sections' })
      .getByRole('tab', { name: 'Settings' })
      .click();
    await page.getByRole('region', { name: 'Release settings' }).waitFor();
  },
  deleteButton: () => page.getByRole('button', { name: 'Delete release' }),
  delete: async (version: string) => {
    await page.getByRole('button', { name: 'Delete release' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete release ${version}?` });
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  },
  // Pins the fleet from its summary's release picker, choosing the release by short commit.
  pinFleet: async (commit: string) => {
    await page.getByRole('combobox', { name: 'Default release' }).click();
    await page.getByRole('option', { name: new RegExp(commit.slice(0, 7)) }).click();
  },
});
