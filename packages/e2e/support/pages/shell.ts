import type { Page } from 'playwright-core';

export const shell = (page: Page) => ({
  signOut: async () => {
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
  },
  offlineBanner: () => page.getByText('We are offline, trying to reconnect...'),
  // The help button carries the API status: 'All systems operational' or 'Connection problems'.
  status: (status: string) => page.getByRole('button', { name: `Help and status: ${status}` }),
  cookieBanner: () => page.getByRole('region', { name: 'Cookies and storage' }),
  retry: () => page.getByRole('button', { name: 'Retry' }).click(),
});
