import type { Page } from 'playwright-core';

export const shell = (page: Page) => ({
  signOut: async () => {
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
  },
  offlineBanner: () => page.getByText('We are offline, trying to reconnect...'),
  retry: () => page.getByRole('button', { name: 'Retry' }).click(),
});
