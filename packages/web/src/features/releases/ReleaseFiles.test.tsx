// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureDownloads } from '../../test-support/downloads.js';
import { createFakeApi } from '../../test-support/fake-api.js';
import { fleetMember } from '../../test-support/fixtures.js';
import { fleetFixture, fleetRow } from '../../test-support/fleet-helpers.js';
import { releaseRow } from '../../test-support/release-fixtures.js';
import { renderReleasePages } from '../../test-support/release-pages.js';

// The release page's files: each service's Dockerfile (viewed and downloaded), the composition
// and the build log, shown capped and downloaded whole.

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const dockerfile = 'FROM alpine:3.20\nRUN apk add curl\nCMD ["curl", "--version"]\n';
const longLog = Array.from({ length: 3001 }, (_, index) => `step ${index + 1}`).join('\n');

const image = (id: number, name: string, fields: Record<string, unknown>) => ({
  id,
  status: 'success',
  image_size: 1_000_000,
  error_message: null,
  dockerfile: null,
  build_log: `[${name}] built`,
  is_a_build_of__service: [{ id, service_name: name }],
  ...fields,
});

const release = releaseRow(5, {
  build_log: longLog,
  release_image: [
    { id: 50, image: [image(500, 'api', { dockerfile })] },
    { id: 51, image: [image(501, 'main', {})] },
  ],
});

const setup = (role = 'developer') => {
  const api = createFakeApi({
    user_application_membership: [fleetMember(role)],
    application: [fleetRow(fleetFixture(), { owns__release: [release] })],
    release: [release],
  });
  renderReleasePages(api, '/fleets/12/releases/5');
  return { user: userEvent.setup(), downloads: captureDownloads() };
};

const services = () => screen.findByRole('table', { name: 'Services and images' });

describe('release files', { timeout: 60_000 }, () => {
  it("shows a service's Dockerfile and downloads it; a service without one says so", async () => {
    const { user, downloads } = setup();
    const table = await services();
    const mainRow = within(table).getByText('main').closest('tr');
    expect(mainRow?.textContent).toContain('No Dockerfile available');
    await user.click(within(table).getByRole('button', { name: 'View the Dockerfile of api' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dockerfile of api' });
    expect(within(dialog).getByLabelText('Dockerfile of api').textContent).toBe(dockerfile);
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(within(table).getByRole('button', { name: 'Download the Dockerfile of api' }));
    expect(downloads.map((file) => file.name)).toEqual(['api.Dockerfile', 'api.Dockerfile']);
    expect(await downloads[1]?.text()).toBe(dockerfile);
  });

  it('downloads the composition as a docker-compose.yml', async () => {
    const { user, downloads } = setup();
    const section = await screen.findByRole('region', { name: 'Composition' });
    expect(within(section).getByLabelText('Composition (docker-compose.yml)').textContent).toBe(
      'version: "2.1"\nservices:\n  main:\n    image: "nginx:1.27"\n',
    );
    await user.click(within(section).getByRole('button', { name: 'Download the composition' }));
    expect(downloads.map((file) => [file.name, file.type])).toEqual([
      ['garden-sensors_5bcdef1_docker-compose.yml', 'application/yaml'],
    ]);
    expect(await downloads[0]?.text()).toContain('    image: "nginx:1.27"\n');
  });

  it('shows the last 2,999 lines of the build log and downloads all of it', async () => {
    const { user, downloads } = setup();
    const section = await screen.findByRole('region', { name: 'Build log' });
    const shown = within(section).getByLabelText('Build log lines').textContent?.split('\n');
    expect(shown).toHaveLength(2999);
    expect(shown?.[0]).toBe('step 3');
    expect(shown?.at(-1)).toBe('step 3001');
    expect(
      within(section).getByText(/Showing the last 2,999 of 3,001 lines; the download has all/),
    ).toBeTruthy();
    await user.click(within(section).getByRole('button', { name: 'Download the build log' }));
    expect(downloads[0]?.name).toBe('garden-sensors_5bcdef1_build.log');
    expect(await downloads[0]?.text()).toBe(longLog);

    // One service's log: shown whole, downloaded under its name.
    await user.click(within(section).getByRole('combobox', { name: 'Service' }));
    await user.click(await screen.findByRole('option', { name: 'api' }));
    expect(within(section).getByLabelText('Build log lines').textContent).toBe('[api] built');
    expect(within(section).queryByText(/Showing the last/)).toBeNull();
    await user.click(within(section).getByRole('button', { name: 'Download the build log' }));
    expect(downloads[1]?.name).toBe('garden-sensors_5bcdef1_api_build.log');
    expect(await downloads[1]?.text()).toBe('[api] built');
  });

  it('offers observers the Dockerfiles but no build log or composition', async () => {
    setup('observer');
    const table = await services();
    expect(within(table).getByRole('button', { name: 'View the Dockerfile of api' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Download the build log' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Download the composition' })).toBeNull();
  });
});
