import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { baseUrl, launchBrowser, newPage } from '../support/browser.js';
import { createRelease } from '../support/releases.js';

// A release's assets (attached as balena-sdk's release.asset.upload does: a multipart
// POST) shown on its page as a tree, each file downloadable from its link.
describe('release assets', () => {
  let browser: Browser;
  let owner: ApiUser;
  let fleetId: number;
  let release: { id: number; commit: string };

  const upload = async (key: string, name: string, content: string): Promise<void> => {
    const form = new FormData();
    form.append('release', String(release.id));
    form.append('asset_key', key);
    form.append('asset', new File([content], name, { type: 'text/plain' }));
    const response = await fetch(`${baseUrl()}/v7/release_asset`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${owner.client.auth.getToken() ?? ''}` },
    });
    expect(response.status, await response.clone().text()).toBe(201);
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('assets');
    fleetId = await createFleet(owner, 'Asset-Garden');
    release = await createRelease(owner, fleetId, ['main']);
    await upload('docs/manual.txt', 'manual.txt', 'the manual');
    await upload('notes.txt', 'notes.txt', 'release notes');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the assets as a tree and downloads a file', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    await page.goto(`/fleets/${fleetId}/releases/${release.id}`);
    const assets = page.getByRole('region', { name: 'Assets' });
    const folder = assets.getByRole('listitem', { name: 'Folder docs' });
    await folder.waitFor();
    const manual = folder.getByRole('listitem', { name: 'File docs/manual.txt' });
    expect(await manual.textContent()).toContain('10 B');
    await assets.getByRole('listitem', { name: 'File notes.txt' }).waitFor();
    const download = page.waitForEvent('download');
    await manual.getByRole('link', { name: 'Download docs/manual.txt' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('manual.txt');
    const stream = await file.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk));
    expect(Buffer.concat(chunks).toString('utf8')).toBe('the manual');
  });
});
