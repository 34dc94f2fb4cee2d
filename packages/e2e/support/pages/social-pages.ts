import type { Page } from 'playwright-core';

// Page objects of social sign-in: the login page's provider buttons and Preferences → Profile's
// social accounts.
export const socialLogin = (page: Page) => ({
  button: (label: string) => page.getByRole('link', { name: `Log in with ${label}` }),
  logInWith: (label: string) => page.getByRole('link', { name: `Log in with ${label}` }).click(),
});

export const socialAccounts = (page: Page) => {
  const table = page.getByRole('table', { name: 'Social accounts' });
  return {
    table,
    row: (text: string) => table.getByRole('row').filter({ hasText: text }),
    link: (label: string) => page.getByRole('button', { name: `Link ${label}` }).click(),
    unlink: async (text: string) => {
      await table
        .getByRole('row')
        .filter({ hasText: text })
        .getByRole('button', { name: 'Unlink' })
        .click();
      await page.getByRole('dialog').getByRole('button', { name: 'Unlink' }).click();
    },
    dialog: () => page.getByRole('dialog'),
  };
};
