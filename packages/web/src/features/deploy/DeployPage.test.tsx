// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useParams } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientProvider } from '../../api/client.js';
import { createFakeApi, type FakeApi } from '../../test-support/fake-api.js';
import { testUserId } from '../../test-support/fixtures.js';
import { deployConfigKey, deployConfigMaxAgeMs } from './deploy-config.js';
import { DeployPage } from './DeployPage.js';

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

const FleetStub = () => <p>Fleet {useParams().id}</p>;

// The builder answers once the release exists; the page follows it from there.
const times = { start_timestamp: new Date().toISOString(), update_timestamp: null };

const setup = (path: string) => {
  const api = createFakeApi({
    organization: [
      {
        id: 3,
        name: 'Acme',
        handle: 'acme',
        organization_membership: [
          {
            id: 1,
            user: { __id: testUserId },
            organization_membership_role: [{ name: 'administrator' }],
          },
        ],
      },
    ],
    device_type: [
      { id: 30, slug: 'raspberrypi4-64', name: 'Raspberry Pi 4 (64bit)' },
      { id: 31, slug: 'fincm3', name: 'Balena Fin (CM3)' },
    ],
    application: [
      {
        id: 12,
        app_name: 'garden-sensors',
        is_of__class: 'fleet',
        organization: [{ id: 3, handle: 'acme' }],
      },
    ],
    application_environment_variable: [
      { id: 50, application: { __id: 12 }, name: 'VOLUME', value: '10' },
    ],
    application_config_variable: [],
    release: [
      { id: 77, status: 'success', build_log: 'Build succeeded', ...times },
      { id: 78, status: 'success', build_log: 'Build succeeded', ...times },
      {
        id: 79,
        status: 'failed',
        build_log:
          'Downloading https://example.com/sound.tar.gz\nBuild failed: The project URL answered 404 Not Found',
        ...times,
      },
      { id: 80, status: 'running', build_log: null, ...times },
    ],
  });
  // A created fleet is listed as the fleet query reads it.
  api.shapeCreated('application', (body) => ({
    ...body,
    organization: [{ id: 3, handle: 'acme' }],
  }));
  const builds: { query: string; body: unknown }[] = [];
  const answerBuild = (status: number, reply: object | string) =>
    api.on('POST', '/v3/buildFromUrl', (body, url) => {
      builds.push({ query: url.search, body });
      return typeof reply === 'string' ? { status, text: reply } : { status, body: reply };
    });
  answerBuild(200, { started: true, releaseId: 77, message: 'Building release 77' });
  const router = createMemoryRouter(
    [
      { path: '/deploy', element: <DeployPage /> },
      { path: '/fleets/:id', element: <FleetStub /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <ClientProvider client={api.client}>
      <QueryClientProvider
        client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
      >
        <RouterProvider router={router} />
      </QueryClientProvider>
    </ClientProvider>,
  );
  return { api, builds, answerBuild, router, user: userEvent.setup() };
};

const deployButton = () => screen.findByRole<HTMLButtonElement>('button', { name: 'Deploy' });

const writesOf = (api: FakeApi) =>
  api.writes.map(({ method, resource, id, body }) => ({ method, resource, id, body }));

const link =
  '/deploy?tarballUrl=https%3A%2F%2Fexample.com%2Fsound.tar.gz&name=Sound%20box' +
  '&deviceType=fincm3&description=Music%20everywhere&env.VOLUME=80&config.BALENA_HOST_CONFIG_gpu_mem=128';

describe('DeployPage', { timeout: 60_000 }, () => {
  it('creates a fleet, sets its variables and builds the release from the tarball URL', async () => {
    const { api, builds, user, router } = setup(link);
    expect(await screen.findByRole('heading', { name: 'Deploy Sound box' })).toBeTruthy();
    expect(screen.getByText('Music everywhere')).toBeTruthy();
    expect((screen.getByLabelText('Fleet name') as HTMLInputElement).value).toBe('Sound-box');
    // The configuration is kept, and the address bar cleaned of it.
    expect(window.localStorage.getItem(deployConfigKey)).toContain('sound.tar.gz');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await user.clear(screen.getByLabelText('VOLUME'));
    await user.type(screen.getByLabelText('VOLUME'), '90');
    const deploy = await deployButton();
    await waitFor(() => expect(deploy.disabled).toBe(false));
    await user.click(deploy);
    expect(await screen.findByText('Fleet 1000')).toBeTruthy();
    expect(writesOf(api)).toEqual([
      {
        method: 'POST',
        resource: 'application',
        id: undefined,
        body: {
          app_name: 'Sound-box',
          organization: 3,
          is_for__device_type: 31,
          is_of__class: 'fleet',
        },
      },
      {
        method: 'POST',
        resource: 'application_environment_variable',
        id: undefined,
        body: { application: 1000, name: 'VOLUME', value: '90' },
      },
      {
        method: 'POST',
        resource: 'application_config_variable',
        id: undefined,
        body: { application: 1000, name: 'BALENA_HOST_CONFIG_gpu_mem', value: '128' },
      },
    ]);
    expect(builds).toEqual([
      {
        query: '?headless=true&owner=acme&app=Sound-box',
        body: { url: 'https://example.com/sound.tar.gz', shouldFlatten: true },
      },
    ]);
    expect(window.localStorage.getItem(deployConfigKey)).toBeNull();
  });

  it('shows a danger notice when the build is refused, and tries again on the created fleet', async () => {
    const { api, builds, answerBuild, user } = setup(link);
    answerBuild(400, 'Refusing to download from example.com: 10.0.0.1 is a private address');
    const deploy = await deployButton();
    await waitFor(() => expect(deploy.disabled).toBe(false));
    await user.click(deploy);
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toMatch(/10\.0\.0\.1 is a private address/);
    expect(within(notice).getByRole('link', { name: 'open it' }).getAttribute('href')).toBe(
      '/fleets/1000',
    );
    answerBuild(200, { started: true, releaseId: 78, message: 'Build succeeded' });
    const again = await deployButton();
    await waitFor(() => expect(again.disabled).toBe(false));
    await user.click(again);
    expect(await screen.findByText('Fleet 1000')).toBeTruthy();
    expect(api.writes.filter((write) => write.resource === 'application')).toHaveLength(1);
    expect(builds).toHaveLength(2);
  });

  it('deploys to an existing fleet, changing the variables it has', async () => {
    const { api, builds, user } = setup(link);
    await user.click(await screen.findByRole('radio', { name: 'Use an existing fleet' }));
    await user.click(screen.getByRole('combobox', { name: 'Fleet' }));
    await user.click(await screen.findByRole('option', { name: 'acme/garden-sensors' }));
    await user.click(await deployButton());
    expect(await screen.findByText('Fleet 12')).toBeTruthy();
    expect(writesOf(api)).toEqual([
      {
        method: 'PATCH',
        resource: 'application_environment_variable',
        id: 50,
        body: { value: '80' },
      },
      {
        method: 'POST',
        resource: 'application_config_variable',
        id: undefined,
        body: { application: 12, name: 'BALENA_HOST_CONFIG_gpu_mem', value: '128' },
      },
    ]);
    expect(builds[0]?.query).toBe('?headless=true&owner=acme&app=garden-sensors');
  });

  it('stays with a danger notice and the build log when the build failed', async () => {
    const { answerBuild, user } = setup(link);
    answerBuild(200, { started: true, releaseId: 79, message: 'Building release 79' });
    const deploy = await deployButton();
    await waitFor(() => expect(deploy.disabled).toBe(false));
    await user.click(deploy);
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toMatch(/its build failed/);
    expect(within(notice).getByLabelText('Build log').textContent).toMatch(
      /Build failed: The project URL answered 404 Not Found$/,
    );
    expect(
      within(notice).getByRole('link', { name: 'Open the release' }).getAttribute('href'),
    ).toBe('/fleets/1000/releases/79');
    expect(window.localStorage.getItem(deployConfigKey)).not.toBeNull();
    // The form is back, to try again on the fleet just created.
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Deploy' }) as HTMLButtonElement).disabled).toBe(
        false,
      ),
    );
    expect(
      screen.getByRole<HTMLInputElement>('radio', { name: 'Use an existing fleet' }).checked,
    ).toBe(true);
  });

  it('follows a running build until it succeeds, then opens the fleet', async () => {
    const { api, answerBuild, user } = setup(link);
    answerBuild(200, { started: true, releaseId: 80, message: 'Building release 80' });
    const deploy = await deployButton();
    await waitFor(() => expect(deploy.disabled).toBe(false));
    await user.click(deploy);
    expect(await screen.findByText('Release 80 is building…')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Deploying…' }).disabled).toBe(
      true,
    );
    const readsBefore = api.reads.filter((url) => url.pathname.includes('release')).length;
    // The server ends the build; the page sees it on its next refresh (every 6 s).
    api.data.release = (api.data.release ?? []).map((row) =>
      row.id === 80 ? { ...row, status: 'success', build_log: 'Build succeeded' } : row,
    );
    expect(await screen.findByText('Fleet 1000', undefined, { timeout: 20_000 })).toBeTruthy();
    expect(api.reads.filter((url) => url.pathname.includes('release')).length).toBeGreaterThan(
      readsBefore,
    );
    expect(window.localStorage.getItem(deployConfigKey)).toBeNull();
  });

  it('says when the build status cannot be read', async () => {
    const { api, answerBuild, user } = setup(link);
    answerBuild(200, { started: true, releaseId: 80, message: 'Building release 80' });
    api.refuseNextRead('release', 'The server is unavailable', { status: 503 });
    const deploy = await deployButton();
    await waitFor(() => expect(deploy.disabled).toBe(false));
    await user.click(deploy);
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toMatch(/The server is unavailable/);
    expect(
      within(notice).getByRole('link', { name: 'Open the release' }).getAttribute('href'),
    ).toBe('/fleets/1000/releases/80');
  });

  it('picks up the configuration kept for a day, and not after', async () => {
    const rawConfig = 'tarballUrl=https%3A%2F%2Fexample.com%2Fkept.tar.gz&name=kept-app';
    window.localStorage.setItem(
      deployConfigKey,
      JSON.stringify({ savedAt: Date.now() - deployConfigMaxAgeMs + 60_000, rawConfig }),
    );
    setup('/deploy');
    expect(await screen.findByRole('heading', { name: 'Deploy kept-app' })).toBeTruthy();
    cleanup();
    window.localStorage.setItem(
      deployConfigKey,
      JSON.stringify({ savedAt: Date.now() - deployConfigMaxAgeMs - 60_000, rawConfig }),
    );
    setup('/deploy');
    expect(await screen.findByText(/Nothing to deploy/)).toBeTruthy();
    expect(window.localStorage.getItem(deployConfigKey)).toBeNull();
  });

  it('says when the kept configuration cannot be read', async () => {
    window.localStorage.setItem(deployConfigKey, '{broken');
    setup('/deploy');
    expect(await screen.findByText('Error loading the deploy configuration')).toBeTruthy();
  });
});
