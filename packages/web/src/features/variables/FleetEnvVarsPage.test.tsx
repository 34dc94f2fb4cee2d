// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { fleetMember } from '../../test-support/fixtures.js';
import { FleetEnvVarsPage } from './FleetEnvVarsPage.js';
import {
  answerConfigVars,
  dialogsClosed,
  fill,
  fleetVariable,
  renderPage,
  serviceRows,
  serviceVariable,
} from '../../test-support/variables-pages.js';
import { leaveWarning } from './UnsavedChangesGuard.js';

afterEach(cleanup);

const setup = (role = 'developer') => {
  const api = createFakeApi({
    user_application_membership: [fleetMember(role)],
    application_environment_variable: [
      fleetVariable(1, 'GREETING', 'hello'),
      fleetVariable(2, 'LOG_LEVEL', 'info'),
    ],
    service_environment_variable: [serviceVariable(3, 4, 'GREETING', 'hi from main')],
    service: serviceRows(),
    device_environment_variable: [],
  });
  answerConfigVars(api);
  api.shapeCreated('service_environment_variable', ({ service, ...fields }) => ({
    ...fields,
    service: [{ id: service, application: { __id: 12 } }],
  }));
  const router = renderPage(api, '/fleets/12/envvars', '/fleets/12/envvars', <FleetEnvVarsPage />);
  return { api, router, user: userEvent.setup() };
};

const table = () => screen.findByRole('table', { name: 'Environment variables' });

const rowOf = async (name: string, service: string) => {
  const rows = within(await table()).getAllByRole('row');
  const row = rows.find(
    (candidate) =>
      within(candidate).queryByText(name, { exact: true }) !== null &&
      within(candidate).queryByText(service, { exact: true }) !== null,
  );
  if (!row) throw new Error(`no row ${name} / ${service}`);
  return row;
};

const addVariable = async (
  user: ReturnType<typeof userEvent.setup>,
  name: string,
  value: string,
  service: string,
) => {
  await user.click(screen.getByRole('button', { name: 'Add variable' }));
  const dialog = await screen.findByRole('dialog', { name: 'Add variable' });
  await fill(user, within(dialog).getByLabelText('Name'), name);
  await fill(user, within(dialog).getByLabelText('Value'), value);
  await user.click(within(dialog).getByLabelText('Service'));
  await user.click(await screen.findByRole('option', { name: service }));
  await user.click(within(dialog).getByRole('button', { name: 'Add' }));
  await dialogsClosed();
};

describe('FleetEnvVarsPage', { timeout: 60_000 }, () => {
  it('lists fleet-wide and service variables in one table, filtered by service', async () => {
    const { user } = setup();
    expect(within(await rowOf('GREETING', 'All services')).getByText('hello')).toBeTruthy();
    expect(within(await rowOf('GREETING', 'main')).getByText('hi from main')).toBeTruthy();
    await user.click(screen.getByLabelText('Service'));
    await user.click(await screen.findByRole('option', { name: 'main' }));
    expect(within(await table()).getAllByRole('row')).toHaveLength(2);
    expect(within(await table()).getByText('hi from main')).toBeTruthy();
  });

  it('stages an addition, an update and a deletion, then applies them all', async () => {
    const { api, user } = setup();
    await table();
    await addVariable(user, 'COLOR', 'blue', 'All services');
    await addVariable(user, 'PORT', '8080', 'proxy');
    await user.click(screen.getByRole('button', { name: 'Edit LOG_LEVEL' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit LOG_LEVEL' });
    await fill(user, within(edit).getByLabelText('Value'), 'debug');
    await user.click(within(edit).getByRole('button', { name: 'Stage change' }));
    await dialogsClosed();
    await user.click(screen.getByRole('button', { name: 'Delete GREETING' }));

    // Staged, highlighted, nothing written yet.
    expect((await rowOf('COLOR', 'All services')).getAttribute('data-staged')).toBe('added');
    expect((await rowOf('PORT', 'proxy')).getAttribute('data-staged')).toBe('added');
    expect((await rowOf('LOG_LEVEL', 'All services')).getAttribute('data-staged')).toBe('updated');
    expect(api.writes).toEqual([]);
    const bar = screen.getByRole('region', { name: 'Unsaved changes' });
    expect(
      within(bar).getByText(/4 changes not applied yet \(2 added, 1 updated, 1 deleted\)/),
    ).toBeTruthy();

    await user.click(within(bar).getByRole('button', { name: 'Apply all' }));
    expect(await screen.findByText('All changes successful')).toBeTruthy();
    expect(api.writes).toEqual([
      { method: 'DELETE', resource: 'application_environment_variable', id: 1, body: undefined },
      {
        method: 'PATCH',
        resource: 'application_environment_variable',
        id: 2,
        body: { value: 'debug' },
      },
      {
        method: 'POST',
        resource: 'application_environment_variable',
        id: undefined,
        body: { application: 12, name: 'COLOR', value: 'blue' },
      },
      {
        method: 'POST',
        resource: 'service_environment_variable',
        id: undefined,
        body: { service: 6, name: 'PORT', value: '8080' },
      },
    ]);
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Unsaved changes' })).toBeNull(),
    );
  });

  it('undoes one staged edit, and reverts all after a confirmation', async () => {
    const { api, user } = setup();
    await table();
    await addVariable(user, 'A_ONE', '1', 'All services');
    await addVariable(user, 'A_TWO', '2', 'All services');
    await user.click(screen.getByRole('button', { name: 'Delete LOG_LEVEL' }));
    await user.click(screen.getByRole('button', { name: 'Undo change of A_TWO' }));
    expect(within(await table()).queryByText('A_TWO')).toBeNull();
    expect(screen.getByText(/2 changes not applied yet/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Revert all' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revert all changes?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revert all' }));
    await dialogsClosed();
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Unsaved changes' })).toBeNull(),
    );
    expect(within(await table()).queryByText('A_ONE')).toBeNull();
    expect((await rowOf('LOG_LEVEL', 'All services')).getAttribute('data-staged')).toBeNull();
    expect(api.writes).toEqual([]);
  });

  it('shows every naming rule in the form and stages nothing', async () => {
    const { user } = setup();
    await table();
    await user.click(screen.getByRole('button', { name: 'Add variable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add variable' });
    const name = within(dialog).getByLabelText('Name');
    const expectMessage = async (typed: string, message: string) => {
      await fill(user, name, typed);
      await user.click(within(dialog).getByRole('button', { name: 'Add' }));
      expect(within(dialog).getByText(message)).toBeTruthy();
    };
    await expectMessage('', 'Name is required');
    expect(within(dialog).getByText('Service is required')).toBeTruthy();
    await expectMessage(
      '1ST',
      'Environment variable names must start with a letter and contain only letters, digits and underscores',
    );
    await expectMessage(
      'BALENA_SUPERVISOR_POLL_INTERVAL',
      'Configuration variables are managed through the Configuration page.',
    );
    await expectMessage(
      'BALENA_DEVICE_UUID',
      'This environment variable is reserved and cannot be used.',
    );
    // The server's length limit, said in the form rather than at "Apply all".
    await expectMessage(`A${'B'.repeat(299)}`, 'Name must be at most 255 characters (it has 300)');
    await expectMessage(
      'RESIN_ANYTHING',
      'Variables beginning with RESIN_ or BALENA_ are managed through the Configuration page.',
    );
    await user.click(within(dialog).getByLabelText('Service'));
    await user.click(await screen.findByRole('option', { name: 'All services' }));
    await expectMessage('GREETING', 'A variable with this name already exists');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('region', { name: 'Unsaved changes' })).toBeNull();
  });

  it('reports the first failure, keeps the failed change staged and reloads', async () => {
    const { api, user } = setup();
    await table();
    await addVariable(user, 'GOOD', '1', 'All services');
    await user.click(screen.getByRole('button', { name: 'Delete LOG_LEVEL' }));
    api.refuseNext('DELETE', 'application_environment_variable', 2, 'Variable is locked');
    await user.click(screen.getByRole('button', { name: 'Apply all' }));
    expect(
      await screen.findByText('Some changes failed to apply: Request error: Variable is locked'),
    ).toBeTruthy();
    expect(screen.getByText(/1 change not applied yet \(1 deleted\)/)).toBeTruthy();
    // The successful addition is loaded again from the server.
    await waitFor(async () =>
      expect((await rowOf('GOOD', 'All services')).getAttribute('data-staged')).toBeNull(),
    );
  });

  it('warns before leaving with staged edits', async () => {
    const { router, user } = setup();
    await table();
    await user.click(screen.getByRole('button', { name: 'Delete LOG_LEVEL' }));
    await user.click(screen.getByRole('link', { name: 'Leave the page' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave this page?' });
    expect(within(dialog).getByText(leaveWarning)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await dialogsClosed();
    expect(router.state.location.pathname).toBe('/fleets/12/envvars');
    await user.click(screen.getByRole('link', { name: 'Leave the page' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Leave this page?' })).getByRole('button', {
        name: 'Leave',
      }),
    );
    expect(await screen.findByText('Somewhere else')).toBeTruthy();
  });

  it('warns through the browser when the tab closes with staged edits', async () => {
    const { user } = setup();
    await table();
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Delete LOG_LEVEL' }));
    expect(unload()).toBe(true);
  });

  it('is read-only for an observer', async () => {
    setup('observer');
    expect(within(await rowOf('GREETING', 'All services')).getByText('hello')).toBeTruthy();
    expect(
      await screen.findByText(/You can see the variables of this fleet but not change them/),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add variable' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Edit / })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Delete / })).toBeNull();
  });

  it('lets an operator see but not change fleet variables', async () => {
    setup('operator');
    await table();
    expect(await screen.findByText(/but not change them/)).toBeTruthy();
  });
});
