import type { Page } from 'playwright-core';

// Page objects of the account's preferences and the login's two-factor step.
export const twoFactorPreferences = (page: Page) => ({
  open: () => page.goto('/preferences/2fa'),
  // Starts the setup and answers the key shown beside the QR code.
  startSetup: async (): Promise<string> => {
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await page.getByRole('img', { name: 'QR code of the authenticator key' }).waitFor();
    return (await page.getByLabel('Authenticator key').textContent()) ?? '';
  },
  // Enables with a code and answers the recovery codes shown once.
  enable: async (code: string): Promise<string[]> => {
    await page.getByLabel('Authentication code').fill(code);
    await page.getByRole('button', { name: 'Enable' }).click();
    const codes = page.getByRole('region', { name: 'Recovery codes' }).getByRole('listitem');
    await codes.first().waitFor();
    return codes.allTextContents();
  },
  savedCodes: () => page.getByRole('button', { name: 'I have saved them' }).click(),
  enabledNotice: () => page.getByText('Two-factor authentication is enabled.'),
});

export const twoFactorLogin = (page: Page) => ({
  // The authenticator code is sent on its 6th digit, without a click.
  typeCode: (code: string) => page.getByLabel('Authentication code').fill(code),
  useRecoveryCode: async (code: string) => {
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
  },
});

export const sshKeysPreferences = (page: Page) => ({
  open: () => page.goto('/preferences/sshkeys'),
  add: async (title: string, publicKey: string) => {
    await page.getByRole('button', { name: 'Add SSH key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add SSH key' });
    await dialog.getByLabel('Title').fill(title);
    await dialog.getByLabel('Public key').fill(publicKey);
    await dialog.getByRole('button', { name: 'Add' }).click();
    await dialog.waitFor({ state: 'hidden' });
  },
  row: (title: string) =>
    page.getByRole('table', { name: 'SSH keys' }).getByRole('row').filter({ hasText: title }),
});

export const accessTokensPreferences = (page: Page) => ({
  open: () => page.goto('/preferences/access-tokens'),
  // Creates a key with the default expiry and answers it (shown once).
  create: async (name: string): Promise<string> => {
    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByRole('button', { name: 'Create' }).click();
    const shown = page.getByRole('dialog', { name: 'API key created' });
    const key = (await shown.locator('code').textContent()) ?? '';
    await shown.getByRole('button', { name: 'Done' }).click();
    return key;
  },
  row: (name: string) =>
    page.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: name }),
});
