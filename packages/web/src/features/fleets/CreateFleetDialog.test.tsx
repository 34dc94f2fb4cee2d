// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RepositoryContract } from '@flotilla/shared/fleets/repository-contract';
import { configVarsAnswer } from '@flotilla/shared/variables/config-vars-answer';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi, type FakeReply } from '../../test-support/fake-api.js';
import { testUserId } from '../../test-support/fixtures.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import { CreateFleetDialog } from './CreateFleetDialog.js';

afterEach(cleanup);

// The repository https://github.com/acme/widget as the server's lookup answers it.
const widget: RepositoryContract = {
  url: 'https://github.com/acme/widget',
  owner: 'acme',
  repo: 'widget',
  branch: 'main',
  archiveUrl: 'https://github.com/acme/widget/archive/main.tar.gz',
  contract: {
    name: 'Widget',
    type: 'sw.application',
    version: '1.0.0',
    description: null,
    defaultDeviceType: 'intel-nuc',
    supportedDeviceTypes: [],
    environmentVariables: [{ name: 'COLOR', value: 'blue' }],
    configVariables: [],
  },
};

// The signed-in user administers Acme, which already has a fleet named "taken-name". The code
// host knows acme/widget; the lookup of any other repository answers 404 as the server words it.
const renderDialog = (
  options: { lookup?: (url: string) => FakeReply | Promise<FakeReply>; build?: FakeReply } = {},
) => {
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
      { id: 31, slug: 'intel-nuc', name: 'Intel NUC' },
    ],
    application: [{ id: 12, app_name: 'taken-name', organization: { __id: 3 } }],
  });
  const lookups: string[] = [];
  api.on('GET', '/code-host/v1/repository-contract', (_body, url) => {
    const repository = url.searchParams.get('url') ?? '';
    lookups.push(repository);
    if (options.lookup) return options.lookup(repository);
    return repository === widget.url
      ? { status: 200, body: widget }
      : { status: 404, text: `Repository not found: ${repository}` };
  });
  api.on('GET', '/config/vars', () => ({ status: 200, body: configVarsAnswer() }));
  const builds: unknown[] = [];
  api.on('POST', '/v3/buildFromUrl', (body, url) => {
    builds.push({ body, query: Object.fromEntries(url.searchParams) });
    return (
      options.build ?? { status: 200, body: { started: true, releaseId: 77, message: 'Building' } }
    );
  });
  renderWithClient(
    api.client,
    <Routes>
      <Route
        path="/"
        element={
          <CreateFleetDialog className="fleet" existingNames={[]} onClose={() => undefined} />
        }
      />
      <Route path="/fleets/:fleetId" element={<p>The new fleet's page</p>} />
    </Routes>,
  );
  const field = screen.getByRole('textbox', { name: 'Fleet name' }) as HTMLInputElement;
  const create = screen.getByRole('button', { name: 'Create new fleet' }) as HTMLButtonElement;
  return { api, field, create, lookups, builds };
};

const openAdvanced = async (user: ReturnType<typeof userEvent.setup>) => {
  await user.click(screen.getByRole('button', { name: 'Advanced configuration' }));
  return screen.getByRole('textbox', { name: 'Repository URL' });
};

// The lookup waits for the user to stop typing, then for the server.
const slow = { timeout: 5000 };

// Rendering the dialog and typing into it take seconds on a busy machine (not the answers).
describe('CreateFleetDialog', { timeout: 40_000 }, () => {
  it('says "name required" when the name is emptied, and cannot create', async () => {
    const user = userEvent.setup();
    const { field, create } = renderDialog();
    // A suggested name to start with: valid, so no error.
    expect(field.value).not.toBe('');
    await waitFor(() => expect(create.disabled).toBe(false), slow);
    expect(screen.queryByText('name required')).toBeNull();
    await user.clear(field);
    expect(screen.getByText('name required')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(create.disabled).toBe(true);
    await user.type(field, 'abc');
    expect(screen.getByText('at least 4 characters')).toBeTruthy();
    await user.type(field, 'd');
    expect(screen.queryByText('at least 4 characters')).toBeNull();
    expect(create.disabled).toBe(false);
  });

  // A maxLength of 120 cut a pasted name short without a word.
  it('keeps a pasted name whole and says it is too long', async () => {
    const user = userEvent.setup();
    const { field, create } = renderDialog();
    await user.clear(field);
    await user.click(field);
    await user.paste('a'.repeat(130));
    expect(field.value).toHaveLength(130);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(create.disabled).toBe(true);
  });

  it('names the clash with a fleet of the organization, whatever the case', async () => {
    const user = userEvent.setup();
    const { field, create } = renderDialog();
    await waitFor(() => expect(create.disabled).toBe(false), slow);
    await user.clear(field);
    await user.type(field, 'Taken-Name');
    expect(
      screen.getByText('This name is already used by another fleet in the organization'),
    ).toBeTruthy();
    expect(create.disabled).toBe(true);
  });

  it('checks the repository URL, then creates the fleet from it with its variables and a release', async () => {
    const user = userEvent.setup();
    const { api, create, lookups, builds } = renderDialog();
    await waitFor(() => expect(create.disabled).toBe(false), slow);
    const repository = await openAdvanced(user);
    await user.type(repository, 'https://github.com/acme/widget');
    expect(await screen.findByText(/Found Widget \(main branch\)/, undefined, slow)).toBeTruthy();
    expect(lookups).toEqual(['https://github.com/acme/widget']);
    // The balena.yml's default device type is chosen, its variable announced.
    expect(
      screen.getByRole<HTMLInputElement>('combobox', { name: 'Default device type' }).value,
    ).toBe('Intel NUC');
    expect(screen.getByText(/balena.yml adds COLOR/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add environment variable' }));
    await user.type(screen.getByRole('textbox', { name: 'Environment variable 1 name' }), 'MODE');
    await user.type(screen.getByRole('textbox', { name: 'Environment variable 1 value' }), 'demo');
    await waitFor(() => expect(create.disabled).toBe(false), slow);
    await user.click(create);
    expect(await screen.findByText("The new fleet's page", undefined, slow)).toBeTruthy();
    expect(api.writes.map(({ method, resource, body }) => ({ method, resource, body }))).toEqual([
      {
        method: 'POST',
        resource: 'application',
        body: expect.objectContaining({
          is_for__device_type: 31,
          is_stored_at__repository_url: 'https://github.com/acme/widget',
        }) as unknown,
      },
      {
        method: 'POST',
        resource: 'application_environment_variable',
        body: { application: 1000, name: 'COLOR', value: 'blue' },
      },
      {
        method: 'POST',
        resource: 'application_environment_variable',
        body: { application: 1000, name: 'MODE', value: 'demo' },
      },
    ]);
    expect(builds).toEqual([
      {
        body: { url: widget.archiveUrl, shouldFlatten: true },
        query: expect.objectContaining({ headless: 'true', owner: 'acme' }) as unknown,
      },
    ]);
  });

  it('says "Repository not found: {url}" and cannot create', async () => {
    const user = userEvent.setup();
    const { create } = renderDialog();
    await waitFor(() => expect(create.disabled).toBe(false), slow);
    await user.type(await openAdvanced(user), 'https://github.com/acme/nothing');
    expect(
      await screen.findByText(
        /^Repository not found: https:\/\/github\.com\/acme\/nothing/,
        undefined,
        slow,
      ),
    ).toBeTruthy();
    expect(create.disabled).toBe(true);
    expect(
      screen.getByRole('textbox', { name: 'Repository URL' }).getAttribute('aria-invalid'),
    ).toBe('true');
  });

  it('checks the repository again after the code host did not answer', async () => {
    const user = userEvent.setup();
    let answers = 0;
    const { create, lookups } = renderDialog({
      lookup: () => {
        answers += 1;
        return answers === 1
          ? {
              status: 503,
              text: 'Failed retrieving data from the code host (no answer within 10 s)',
            }
          : { status: 200, body: widget };
      },
    });
    await waitFor(() => expect(create.disabled).toBe(false), slow);
    await user.type(await openAdvanced(user), 'https://github.com/acme/widget');
    expect(
      await screen.findByText(/^Failed retrieving data from the code host/, undefined, slow),
    ).toBeTruthy();
    expect(create.disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Check again' }));
    expect(await screen.findByText(/Found Widget/, undefined, slow)).toBeTruthy();
    expect(lookups).toHaveLength(2);
    await waitFor(() => expect(create.disabled).toBe(false), slow);
  });

  it('waits for a slow lookup before it lets the fleet be created', async () => {
    const user = userEvent.setup();
    let answer: (reply: FakeReply) => void = () => undefined;
    const { create, lookups } = renderDialog({
      lookup: () => new Promise<FakeReply>((resolve) => (answer = resolve)),
    });
    await waitFor(() => expect(create.disabled).toBe(false), slow);
    await user.type(await openAdvanced(user), 'https://github.com/acme/widget');
    await waitFor(() => expect(lookups).toHaveLength(1), slow);
    expect(screen.getByText('Checking the repository…')).toBeTruthy();
    expect(create.disabled).toBe(true);
    expect(create.textContent).toBe('Checking…');
    answer({ status: 200, body: widget });
    await waitFor(() => expect(create.disabled).toBe(false), slow);
  });

  it('checks variable names with the naming rules', async () => {
    const user = userEvent.setup();
    const { create } = renderDialog();
    await waitFor(() => expect(create.disabled).toBe(false), slow);
    await openAdvanced(user);
    await user.click(screen.getByRole('button', { name: 'Add environment variable' }));
    await user.type(screen.getByRole('textbox', { name: 'Environment variable 1 name' }), '1ABC');
    expect(
      await screen.findByText(
        'Environment variable names must start with a letter and contain only letters, digits and underscores',
      ),
    ).toBeTruthy();
    expect(create.disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Remove environment variable 1' }));
    await user.click(screen.getByRole('button', { name: 'Add configuration variable' }));
    await user.type(
      screen.getByRole('textbox', { name: 'Configuration variable 1 name' }),
      'MY_SETTING',
    );
    expect(
      await screen.findByText('Configuration variables should begin with RESIN_ or BALENA_'),
    ).toBeTruthy();
    expect(create.disabled).toBe(true);
  });

  it('keeps the fleet and says so when its first release cannot be built', async () => {
    const user = userEvent.setup();
    const { api, create } = renderDialog({
      build: { status: 429, text: 'Too many builds from URLs this hour' },
    });
    await waitFor(() => expect(create.disabled).toBe(false), slow);
    await openAdvanced(user);
    await user.type(
      screen.getByRole('textbox', { name: 'Tarball URL' }),
      'https://example.com/project.tar.gz',
    );
    await user.click(create);
    expect(await screen.findByRole('dialog', { name: 'The fleet was created' })).toBeTruthy();
    expect(screen.getByText(/No release was built: /)).toBeTruthy();
    expect(api.writes).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Open the fleet' }));
    expect(await screen.findByText("The new fleet's page")).toBeTruthy();
  });
});
