import type { Page } from 'playwright-core';

export const shell = (page: Page) => ({
  // Signs out from the account menu and waits for the login page. A failure says where the
  // page ended up instead (a stress run once saw sign-out not reach /login in 30 s).
  signOut: async () => {
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    try {
      await page.waitForURL('**/login**');
    } catch (error) {
      const headings = await page
        .getByRole('heading')
        .allTextContents()
        .catch(() => []);
      throw new Error(
        `Sign out did not reach /login: the page is at ${page.url()}, headings ${JSON.stringify(headings)}, menu open: ${await page.getByRole('menu').isVisible()}`,
        { cause: error },
      );
    }
  },
  offlineBanner: () => page.getByText('We are offline, trying to reconnect...'),
  // The help button carries the API status: 'All systems operational' or 'Connection problems'.
  status: (status: string) => page.getByRole('button', { name: `Help and status: ${status}` }),
  cookieBanner: () => page.getByRole('region', { name: 'Cookies and storage' }),
  retry: () => page.getByRole('button', { name: 'Retry' }).click(),
});
