import type { Locator, Page } from 'playwright-core';

export type DeviceMenuAction =
  'Restart services' | 'Reboot' | 'Shutdown' | 'Identify' | 'Purge data' | 'Delete device';

// Confirm labels of the actions that ask first (Identify runs at once).
const confirmLabels: Record<DeviceMenuAction, string | null> = {
  'Restart services': 'Restart services',
  Reboot: 'Reboot',
  Shutdown: 'Shut down',
  Identify: null,
  'Purge data': 'Purge data',
  'Delete device': 'Delete',
};

// Picks an action in an open Actions menu and confirms it; a delete types the device name (one
// device) or the count (several) first.
const chooseAction = async (
  page: Page,
  action: DeviceMenuAction,
  typeToConfirm?: string,
): Promise<void> => {
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: new RegExp(`^${action}`) }).click();
  const confirm = confirmLabels[action];
  if (confirm === null) return;
  const dialog = page.getByRole('dialog');
  if (typeToConfirm !== undefined) {
    await dialog.getByLabel(`Type "${typeToConfirm}" to confirm`).fill(typeToConfirm);
  }
  await dialog.getByRole('button', { name: confirm, exact: true }).click();
};

// Opens an action of the Actions menu (device page or table selection) that has a form of its
// own (pin, public URL, local mode, support access, move, deactivate) and returns its dialog.
export const openActionDialog = async (page: Page, label: string): Promise<Locator> => {
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: new RegExp(`^${label}`) }).click();
  return page.getByRole('dialog');
};

// The fleet's devices tab (/fleets/:id/devices).
export const fleetDevicesPage = (page: Page) => ({
  open: (fleetId: number, query = '') =>
    page.goto(`/fleets/${fleetId}/devices${query === '' ? '' : `?${query}`}`),
  openTab: () => page.getByRole('tab', { name: 'Devices' }).click(),
  heading: () => page.getByRole('heading', { name: /^Devices/, level: 2 }),
  table: () => page.getByRole('table', { name: 'Devices' }),
  emptyState: () => page.getByText('No devices yet'),
  noMatch: () => page.getByText('No devices match the filters'),
  // The table row of a device, found by its name link.
  row: (name: string): Locator =>
    page
      .getByRole('table', { name: 'Devices' })
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name, exact: true }) }),
  // The status chip text of a device's row ("Online", "Offline", "Updating 40%"...).
  statusOf: (name: string): Locator =>
    page
      .getByRole('table', { name: 'Devices' })
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name, exact: true }) })
      .getByRole('cell')
      .nth(2),
  openDevice: (name: string) => page.getByRole('link', { name, exact: true }).click(),
  search: (text: string) => page.getByRole('searchbox', { name: 'Search devices' }).fill(text),
  filterStatus: async (label: string) => {
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: label, exact: true }).click();
  },
  select: (name: string) => page.getByRole('checkbox', { name: `Select ${name}` }).check(),
  selectPage: () => page.getByRole('checkbox', { name: 'Select all devices on this page' }).check(),
  selectionCount: () => page.getByText(/^(\d+ devices? selected|No devices selected)$/),
  // Runs an action from the selection's Actions menu.
  batch: (action: DeviceMenuAction, typeToConfirm?: string) =>
    chooseAction(page, action, typeToConfirm),
  sortBy: (column: string) =>
    page.getByRole('columnheader', { name: column }).getByRole('button').click(),
  nextPage: () => page.getByRole('button', { name: 'Go to next page' }).click(),
  frozenDialog: () => page.getByRole('dialog', { name: 'Frozen device' }),
  addDevice: () => addDeviceDialog(page),
  lockNotice: () => page.getByText(/update lock is set/),
  force: (action: DeviceMenuAction) =>
    page.getByRole('button', { name: `Force ${action.toLowerCase()}` }).click(),
  toast: (text: string | RegExp) => page.getByRole('alert').filter({ hasText: text }),
});

// The Add device dialog: opens it, chooses the type and poll interval, downloads config.json.
export const addDeviceDialog = (page: Page) => {
  const dialog = page.getByRole('dialog', { name: 'Add device' });
  return {
    open: () => page.getByRole('button', { name: 'Add device' }).first().click(),
    dialog: () => dialog,
    chooseDeviceType: async (name: string) => {
      await dialog.getByLabel('Device type').fill(name.slice(0, 12));
      await page.getByRole('option', { name }).click();
    },
    choosePollInterval: async (label: string) => {
      await dialog.getByRole('combobox', { name: 'Check for updates every' }).click();
      await page.getByRole('option', { name: label, exact: true }).click();
    },
    // Resolves with the downloaded file's suggested name and its JSON content.
    download: async (): Promise<{ fileName: string; config: Record<string, unknown> }> => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        dialog.getByRole('button', { name: 'Download config.json' }).click(),
      ]);
      const stream = await download.createReadStream();
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
      return {
        fileName: download.suggestedFilename(),
        config: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
      };
    },
    agentCommand: () =>
      dialog.getByText(/^npx --yes http\S+\/agent\/flotilla-agent\.tgz --config config\.json$/),
    close: () => dialog.getByRole('button', { name: 'Close' }).click(),
  };
};

// The device page (/devices/:uuid).
export const devicePage = (page: Page) => ({
  open: (uuid: string) => page.goto(`/devices/${uuid}`),
  heading: (name: string) => page.getByRole('heading', { name, level: 1 }),
  summary: () => page.getByRole('region', { name: 'Device summary' }),
  // A field of the summary card by its label ("Heartbeat", "Cloudlink", "Host OS version"...).
  field: (label: string): Locator =>
    page
      .getByRole('region', { name: 'Device summary' })
      .locator('dt', { hasText: label })
      .locator('xpath=following-sibling::dd[1]'),
  status: () =>
    page
      .getByRole('region', { name: 'Device summary' })
      .locator('dt', { hasText: 'Status' })
      .locator('xpath=following-sibling::dd[1]'),
  offlineNotice: () => page.getByText(/This device is offline/),
  rename: async (name: string) => {
    await page.getByRole('button', { name: 'Rename device' }).click();
    await page.getByRole('textbox', { name: 'Device name' }).fill(name);
    await page.getByRole('button', { name: 'Save' }).click();
  },
  notes: () => page.getByRole('textbox', { name: 'Notes' }),
  writeNotes: (text: string) => page.getByRole('textbox', { name: 'Notes' }).fill(text),
  notesSaved: () => page.getByRole('status').filter({ hasText: 'Saved' }),
  actionsButton: () => page.getByRole('button', { name: 'Actions' }),
  // The menu item of an action, with its disabled reason in its text.
  menuItem: async (action: DeviceMenuAction): Promise<Locator> => {
    await page.getByRole('button', { name: 'Actions' }).click();
    return page.getByRole('menuitem', { name: new RegExp(`^${action}`) });
  },
  run: (action: DeviceMenuAction, typeToConfirm?: string) =>
    chooseAction(page, action, typeToConfirm),
  lockNotice: () => page.getByText(/update lock is set/),
  force: (action: DeviceMenuAction) =>
    page.getByRole('button', { name: `Force ${action.toLowerCase()}` }).click(),
  services: () => page.getByRole('region', { name: 'Services' }),
  serviceRow: (service: string): Locator =>
    page
      .getByRole('region', { name: 'Services' })
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: service, exact: true }) }),
  serviceButton: (action: 'Start' | 'Stop' | 'Restart', service: string) =>
    page.getByRole('button', { name: `${action} ${service}` }),
  metric: (label: 'CPU' | 'Temperature' | 'Memory' | 'Storage') =>
    page.getByRole('progressbar', { name: label }),
  toast: (text: string | RegExp) => page.getByRole('alert').filter({ hasText: text }),
});
