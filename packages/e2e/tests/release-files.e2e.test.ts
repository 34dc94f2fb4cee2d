import { text } from 'node:stream/consumers';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';

// A release's files in a real browser: a service's Dockerfile viewed and downloaded,
// the composition as a docker-compose.yml, and the whole build log although only its last
// 2,999 lines are shown.
describe('release files', () => {
  let browser: Browser;
  let owner: ApiUser;
  let fleetId: number;
  let releaseId: number;
  const dockerfile = 'FROM alpine:3.20\nRUN apk add --no-cache curl\n';
  const buildLog = Array.from({ length: 3100 }, (_, index) => `[api] step ${index + 1}`).join('\n');

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('release-files');
    fleetId = await createFleet(owner, 'Release-Files');
    const post = <T>(resource: string, body: Record<string, unknown>) =>
      owner.client.request<T>({ method: 'POST', path: `/v7/${resource}`, body });
    const release = await post<{ id: number }>('release', {
      belongs_to__application: fleetId,
      commit: 'feed5eed00000000000000000000abcd',
      status: 'success',
      source: 'cloud',
      build_log: buildLog,
      composition: { version: '2.1', services: { api: { build: './api' } } },
    });
    releaseId = release.id;
    const service = await post<{ id: number }>('service', {
      application: fleetId,
      service_name: 'api',
    });
    const image = await post<{ id: number }>('image', {
      is_a_build_of__service: service.id,
      status: 'success',
      dockerfile,
      build_log: '[api] built',
    });
    await post('release_image', { image: image.id, is_part_of__release: releaseId });
  });
  afterAll(async () => {
    await browser?.close();
  });

  // What a click hands the browser to save: the file's suggested name and its text.
  const download = async (page: Page, click: () => Promise<void>) => {
    const [file] = await Promise.all([page.waitForEvent('download'), click()]);
    // Read through the connection: the run's Chromium keeps its downloads on its side.
    return { name: file.suggestedFilename(), text: await text(await file.createReadStream()) };
  };

  it('views and downloads the Dockerfile, the composition and the whole build log', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    await page.goto(`/fleets/${fleetId}/releases/${releaseId}`);
    const services = page.getByRole('table', { name: 'Services and images' });
    await services.getByRole('button', { name: 'View the Dockerfile of api' }).click();
    const dialog = page.getByRole('dialog', { name: 'Dockerfile of api' });
    expect(await dialog.getByLabel('Dockerfile of api').textContent()).toBe(dockerfile);
    expect(
      await download(page, () => dialog.getByRole('button', { name: 'Download' }).click()),
    ).toEqual({ name: 'api.Dockerfile', text: dockerfile });
    await page.screenshot({ path: 'data/e2e-screens/release-dockerfile.png' });
    await dialog.getByRole('button', { name: 'Close' }).click();

    const composition = page.getByRole('region', { name: 'Composition' });
    const compose = await download(page, () =>
      composition.getByRole('button', { name: 'Download the composition' }).click(),
    );
    expect(compose).toEqual({
      name: 'Release-Files_feed5ee_docker-compose.yml',
      text: 'version: "2.1"\nservices:\n  api:\n    build: "./api"\n',
    });

    const log = page.getByRole('region', { name: 'Build log' });
    await log.getByText('Showing the last 2,999 of 3,100 lines').waitFor();
    const shown = (await log.getByLabel('Build log lines').textContent()) ?? '';
    expect(shown.split('\n')).toHaveLength(2999);
    const saved = await download(page, () =>
      log.getByRole('button', { name: 'Download the build log' }).click(),
    );
    expect(saved).toEqual({ name: 'Release-Files_feed5ee_build.log', text: buildLog });
    await page.screenshot({ path: 'data/e2e-screens/release-files.png', fullPage: true });
    await page.context().close();
  });
});
