import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, newPage } from '../support/browser.js';

// The platform administrator keeps the host OS catalogue in the console: imports a
// catalogue file, adds, invalidates and removes releases. What it adds it removes again, so
// other scenarios find the catalogue as they left it.
describe('the host OS catalogue', () => {
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    dir = await mkdtemp(path.join(tmpdir(), 'catalogue-'));
  });
  afterAll(async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('an administrator imports a catalogue file, adds, invalidates and removes releases', async () => {
    const file = path.join(dir, 'catalogue.json');
    await writeFile(
      file,
      JSON.stringify({
        releases: [
          {
            kind: 'os',
            deviceType: 'raspberrypi3',
            version: '6.0.13',
            variant: 'prod',
            phase: 'current',
            notes: '* Kernel 6.1\n* Engine 25',
            updaterImage: 'registry.example.com/balena-os/raspberrypi3:6.0.13',
          },
          {
            kind: 'os',
            deviceType: 'raspberrypi3',
            version: '6.1.0',
            variant: 'dev',
            phase: 'next',
            knownIssues: 'Wi-Fi drops after resume on some boards',
          },
          { kind: 'supervisor', cpuArchitecture: 'armv7hf', version: '16.2.0' },
        ],
      }),
    );
    const page = await newPage(browser);
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(inject('adminEmail'));
    await page.getByLabel('Password').fill(inject('adminPassword'));
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('heading', { name: 'Fleets', level: 1 }).waitFor();
    await page.goto('/admin');
    await page.getByRole('link', { name: 'OS catalogue' }).click();
    await page.getByRole('heading', { name: 'OS catalogue', level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Import catalogue file' }).click();
    const importDialog = page.getByRole('dialog', { name: 'Import a catalogue file' });
    await importDialog.getByLabel('Catalogue file').setInputFiles(file);
    await importDialog.getByText('catalogue.json').waitFor();
    await importDialog.getByRole('button', { name: 'Import' }).click();
    await importDialog.getByText('3 created, 0 updated, 0 unchanged').waitFor();
    await importDialog.getByRole('button', { name: 'Close' }).click();

    const os = page.getByRole('table', { name: 'OS releases' });
    await os.getByRole('cell', { name: '6.1.0' }).waitFor();
    await page.getByRole('table', { name: 'Supervisor releases' }).getByText('16.2.0').waitFor();

    await page.getByRole('button', { name: 'Add release' }).click();
    const add = page.getByRole('dialog', { name: 'Add a release' });
    await add.getByRole('combobox', { name: /Device type/ }).click();
    await page.getByRole('option', { name: /\(generic-amd64\)/ }).click();
    await add.getByRole('textbox', { name: /Version/ }).fill('6.2');
    await add.getByRole('button', { name: 'Add release' }).click();
    await add.getByText(/The version must be a semantic version/).waitFor();
    await add.getByRole('textbox', { name: /Version/ }).fill('6.2.0+rev1');
    await add.getByRole('textbox', { name: 'Release notes' }).fill('**Faster boot**');
    await add.getByLabel('Release notes preview').getByText('Faster boot').waitFor();
    await page.screenshot({ path: 'data/e2e-screens/os-catalogue-add.png', fullPage: true });
    await add.getByRole('button', { name: 'Add release' }).click();
    await os.getByRole('cell', { name: '6.2.0+rev1' }).waitFor();

    await os.getByRole('button', { name: 'Invalidate raspberrypi3 6.0.13 prod' }).click();
    await os.getByText('Invalidated').waitFor();
    await page.screenshot({ path: 'data/e2e-screens/os-catalogue.png', fullPage: true });

    // Everything this scenario added goes again.
    for (const name of [
      'raspberrypi3 6.1.0 dev',
      'raspberrypi3 6.0.13 prod',
      'generic-amd64 6.2.0+rev1 prod',
      'armv7hf 16.2.0',
    ]) {
      await page.getByRole('button', { name: `Delete ${name}`, exact: true }).click();
      const dialog = page.getByRole('dialog', {
        name: new RegExp(`Remove .* ${name.replace(/[.+]/g, '\\$&')}\\?`),
      });
      await dialog.getByRole('button', { name: 'Remove' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    // Other browser tests share this server's catalogue: only this scenario's rows must be gone.
    for (const name of ['raspberrypi3 6.1.0 dev', 'raspberrypi3 6.0.13 prod', 'armv7hf 16.2.0']) {
      expect(await page.getByRole('button', { name: `Delete ${name}`, exact: true }).count()).toBe(
        0,
      );
    }
    await page.context().close();
  });
});
