import type { Locator, Page } from 'playwright-core';

// The variables and configuration pages of fleets and devices: tables with staged
// edits, the sticky bar, the add/edit dialog and the overrides dialog.
export const variablesPage = (page: Page) => {
  const dialog = (name: string | RegExp): Locator => page.getByRole('dialog', { name });
  const bar = (): Locator => page.getByRole('region', { name: 'Unsaved changes' });
  // Opens the add dialog and fills it; `service` is chosen when the form offers services.
  const fillAdd = async (name: string, value: string, service?: string): Promise<Locator> => {
    await page.getByRole('button', { name: 'Add variable' }).click();
    const form = dialog('Add variable');
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Value').fill(value);
    if (service !== undefined) {
      await form.getByLabel('Service').click();
      await page.getByRole('option', { name: service, exact: true }).click();
    }
    return form;
  };
  return {
    fillAdd,
    openFleet: (fleetId: number) => page.goto(`/fleets/${fleetId}/envvars`),
    openFleetConfig: (fleetId: number) => page.goto(`/fleets/${fleetId}/config`),
    openDevice: (uuid: string) => page.goto(`/devices/${uuid}/envvars`),
    table: (name = 'Environment variables'): Locator =>
      page.getByRole('table', { name, exact: true }),
    // The row of a variable, by its name and service ("All services" for fleet-wide ones).
    row: (name: string, service = 'All services', table = 'Environment variables'): Locator =>
      page
        .getByRole('table', { name: table, exact: true })
        .getByRole('row')
        .filter({ has: page.getByRole('cell', { name, exact: true }) })
        .filter({ has: page.getByRole('cell', { name: service, exact: true }) }),
    dialog,
    bar,
    readOnlyNotice: (): Locator => page.getByText(/but not change (them|it)/),
    addButton: (): Locator => page.getByRole('button', { name: 'Add variable' }),
    add: async (name: string, value: string, service?: string): Promise<void> => {
      const form = await fillAdd(name, value, service);
      await form.getByRole('button', { name: 'Add' }).click();
      await form.waitFor({ state: 'hidden' });
    },
    // Edits (or, on a device page, overrides) the value of a row, by its button label
    // ("GREETING" or "GREETING of main").
    edit: async (label: string, value: string, title: string | RegExp): Promise<void> => {
      await page.getByRole('button', { name: `Edit ${label}`, exact: true }).click();
      const form = dialog(title);
      await form.getByLabel('Value').fill(value);
      await form.getByRole('button', { name: 'Stage change' }).click();
      await form.waitFor({ state: 'hidden' });
    },
    remove: (label: string) =>
      page.getByRole('button', { name: `Delete ${label}`, exact: true }).click(),
    undo: (label: string) =>
      page.getByRole('button', { name: `Undo change of ${label}`, exact: true }).click(),
    overrides: (label: string) =>
      page.getByRole('button', { name: `Overrides of ${label}`, exact: true }).click(),
    applyAll: () => bar().getByRole('button', { name: 'Apply all' }).click(),
    revertAll: async (): Promise<void> => {
      await bar().getByRole('button', { name: 'Revert all' }).click();
      await dialog('Revert all changes?').getByRole('button', { name: 'Revert all' }).click();
    },
    toast: (text: string | RegExp): Locator => page.getByRole('alert').filter({ hasText: text }),
    leaveDialog: (): Locator => dialog('Leave this page?'),
  };
};

// The fleet's API keys tab (/fleets/:id/api-keys).
export const apiKeysPage = (page: Page) => ({
  open: (fleetId: number) => page.goto(`/fleets/${fleetId}/api-keys`),
  table: (): Locator => page.getByRole('table', { name: 'Provisioning keys' }),
  row: (name: string): Locator =>
    page
      .getByRole('table', { name: 'Provisioning keys' })
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name, exact: true }) }),
  // Creates a key and answers it, as the dialog shows it once.
  create: async (name: string): Promise<string> => {
    await page.getByRole('button', { name: 'Create provisioning key' }).click();
    const form = page.getByRole('dialog', { name: 'Create provisioning key' });
    await form.getByLabel('Name').fill(name);
    await form.getByRole('button', { name: 'Create' }).click();
    const shown = page.getByRole('dialog', { name: 'Provisioning key created' });
    const key = (await shown.locator('code').textContent()) ?? '';
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'hidden' });
    return key;
  },
  revoke: async (name: string): Promise<void> => {
    await page.getByRole('button', { name: `Revoke ${name}`, exact: true }).click();
    await page
      .getByRole('dialog', { name: `Revoke ${name}?` })
      .getByRole('button', { name: 'Revoke' })
      .click();
  },
});
