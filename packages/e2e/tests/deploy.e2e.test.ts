import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, logInAs, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';

// A compose project as a .tar.gz, made by the system's tar as a user would.
const projectTarball = async (): Promise<Buffer> => {
  const dir = await mkdtemp(join(tmpdir(), 'flotilla-e2e-deploy-'));
  try {
    await writeFile(
      join(dir, 'docker-compose.yml'),
      "services:\n  web:\n    image: nginx:1.27\n    ports: ['80:80']\n",
    );
    await promisify(execFile)('tar', ['czf', 'project.tar.gz', 'docker-compose.yml'], { cwd: dir });
    return await readFile(join(dir, 'project.tar.gz'));
  } finally {
    await rm(dir, { recursive: true });
  }
};

// A "deploy" link (/deploy?tarballUrl=...) creates a fleet with its variables and a
// release the server builds from the tarball, served here on 127.0.0.1 (allowed for the test
// server by FLOTILLA_BUILDER_ALLOWED_NETWORKS).
describe('deploy from a URL', () => {
  let browser: Browser;
  let owner: ApiUser;
  let projectServer: Server;
  let tarballUrl: string;
  const served: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('deploy');
    const project = await projectTarball();
    projectServer = createServer((request, response) => {
      served.push(request.url ?? '');
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

  it('creates a fleet with its variables and a release built from the tarball', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const link = new URLSearchParams({
      tarballUrl,
      name: 'Deployed-Garden',
      description: 'A garden of sensors',
      'env.GREETING': 'hello',
    });
    await page.goto(`/deploy?${link.toString()}`);
    await page.getByRole('heading', { name: 'Deploy Deployed-Garden' }).waitFor();
    expect(await page.getByLabel('GREETING').inputValue()).toBe('hello');
    await page.screenshot({ path: 'data/e2e-screens/deploy.png', fullPage: true });
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await page.waitForURL(/\/fleets\/\d+$/, { timeout: 30_000 });
    const fleetId = Number(new URL(page.url()).pathname.split('/').pop());

    const fleet = await owner.client.pine.get({
      resource: 'application',
      id: fleetId,
      options: {
        $select: ['app_name'],
        $expand: {
          owns__release: { $select: ['status'] },
          application_environment_variable: { $select: ['name', 'value'] },
        },
      },
    });
    expect(fleet).toEqual({
      app_name: 'Deployed-Garden',
      owns__release: [{ status: 'success' }],
      application_environment_variable: [{ name: 'GREETING', value: 'hello' }],
    });
    expect(served).toEqual(['/project.tar.gz']);
    // The kept configuration is gone once deployed.
    expect(await page.evaluate(() => window.localStorage.getItem('flotilla.deploy-config'))).toBe(
      null,
    );
    await page.context().close();
  });

  it("shows this product's changelog from the header's version button", async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    await page.getByRole('button', { name: /^Changelog, version / }).click();
    const dialog = page.getByRole('dialog', { name: 'Changelog' });
    await dialog.getByText(/Deploy links/).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.context().close();
  });
});
