import type { Page } from 'playwright-core';

export const applicationPage = (page: Page) => ({
  open: (id: number, tab: 'summary' | 'settings' | 'members' = 'summary') =>
    page.goto(`/fleets/${id}${tab === 'summary' ? '' : `/${tab}`}`),
  heading: (name: string) => page.getByRole('heading', { name, level: 1 }),
  openSettings: async () => {
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('textbox', { name: 'Fleet name' }).waitFor();
  },
  rename: async (name: string) => {
    const field = page.getByRole('textbox', { name: 'Fleet name' });
    await field.fill(name);
    await page.getByRole('button', { name: 'Rename' }).click();
  },
  deleteButton: () => page.getByRole('button', { name: 'Delete fleet' }),
  delete: async (name: string) => {
    await page.getByRole('button', { name: 'Delete fleet' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(`Type "${name}" to confirm`).fill(name);
    await dialog.getByRole('button', { name: 'Delete fleet' }).click();
  },
});
