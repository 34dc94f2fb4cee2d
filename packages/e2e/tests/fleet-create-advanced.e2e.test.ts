import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';

const projectTarball = async (): Promise<Buffer> => {
  const dir = await mkdtemp(join(tmpdir(), 'flotilla-e2e-create-'));
  try {
    await writeFile(join(dir, 'docker-compose.yml'), 'services:\n  web:\n    image: nginx:1.27\n');
    await promisify(execFile)('tar', ['czf', 'project.tar.gz', 'docker-compose.yml'], { cwd: dir });
    return await readFile(join(dir, 'project.tar.gz'));
  } finally {
    await rm(dir, { recursive: true });
  }
};

// The fleet list's table view, and a fleet created with the dialog's advanced configuration: a
// variable and a first release built from a tarball served on 127.0.0.1 (allowed for the test
// server by FLOTILLA_BUILDER_ALLOWED_NETWORKS). Repository lookups are covered by the server's
// integration test: browser tests never reach a real code host.
describe('creating a fleet with advanced configuration', () => {
  let browser: Browser;
  let owner: ApiUser;
  let projectServer: Server;
  let tarballUrl: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('advanced');
    const project = await projectTarball();
    projectServer = createServer((request, response) => {
      if (request.url === '/project.tar.gz') response.end(project);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => projectServer.listen(0, '127.0.0.1', resolve));
    const { port } = projectServer.address() as AddressInfo;
    tarballUrl = `http://127.0.0.1:${port}/project.tar.gz`;
  });
  afterAll(async () => {
    await browser?.close();
    projectServer?.close();
  });

  it('lists fleets as a table and creates one with a variable and a first release', async () => {
    await createFleet(owner, 'Table-Listed');
    const page = await newPage(browser);
    await logInAs(page, owner);
    await page.goto('/fleets?view=table');
    const table = page.getByRole('table', { name: 'Fleets' });
    await table.getByRole('link', { name: 'Table-Listed' }).waitFor();
    await page.screenshot({ path: 'data/e2e-screens/fleet-list-table.png', fullPage: true });

    await page.getByRole('button', { name: 'Create fleet' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create fleet' });
    await dialog.getByLabel('Fleet name').fill('Built-From-Tarball');
    await dialog.getByRole('button', { name: 'Advanced configuration' }).click();
    // A repository URL of another host is refused by the server without any lookup.
    await dialog.getByLabel('Repository URL').fill('https://example.invalid/acme/widget');
    await dialog.getByText(/is not a repository URL: it must be https:\/\/github.com/).waitFor();
    const create = dialog.getByRole('button', { name: 'Create new fleet' });
    expect(await create.isDisabled()).toBe(true);
    await dialog.getByLabel('Repository URL').fill('');
    await dialog.getByLabel('Tarball URL').fill(tarballUrl);
    await dialog.getByRole('button', { name: 'Add environment variable' }).click();
    await dialog.getByLabel('Environment variable 1 name').fill('GREETING');
    await dialog.getByLabel('Environment variable 1 value').fill('hello');
    await expect.poll(() => create.isEnabled()).toBe(true);
    await page.screenshot({
      path: 'data/e2e-screens/fleet-create-advanced.png',
      animations: 'disabled',
    });
    await create.click();
    await page.waitForURL(/\/fleets\/\d+/);
    const fleetId = Number(/\/fleets\/(\d+)/.exec(page.url())?.[1]);

    const variables = await owner.client.pine.get({
      resource: 'application_environment_variable',
      options: { $select: ['name', 'value'], $filter: { application: fleetId } },
    });
    expect(variables).toEqual([{ name: 'GREETING', value: 'hello' }]);
    await expect
      .poll(
        async () =>
          (
            await owner.client.pine.get({
              resource: 'release',
              options: { $select: ['status'], $filter: { belongs_to__application: fleetId } },
            })
          ).map((release) => release.status),
        { timeout: 30_000 },
      )
      .toEqual(['success']);
  });
});
