// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { testUserId } from '../../test-support/fixtures.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import { CreateFleetDialog } from './CreateFleetDialog.js';

afterEach(cleanup);

// The signed-in user administers Acme, which already has a fleet named "taken-name".
const renderDialog = () => {
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
    device_type: [{ id: 30, slug: 'raspberrypi4-64', name: 'Raspberry Pi 4 (64bit)' }],
    application: [{ id: 12, app_name: 'taken-name', organization: { __id: 3 } }],
  });
  renderWithClient(
    api.client,
    <CreateFleetDialog className="fleet" existingNames={[]} onClose={() => undefined} />,
  );
  const field = screen.getByRole('textbox', { name: 'Fleet name' }) as HTMLInputElement;
  const create = screen.getByRole('button', { name: 'Create new fleet' }) as HTMLButtonElement;
  return { field, create };
};

// Rendering the dialog and typing into it take seconds on a busy machine (not the answers).
describe('CreateFleetDialog', { timeout: 20_000 }, () => {
  it('says "name required" when the name is emptied, and cannot create', async () => {
    const user = userEvent.setup();
    const { field, create } = renderDialog();
    // A suggested name to start with: valid, so no error.
    expect(field.value).not.toBe('');
    await waitFor(() => expect(create.disabled).toBe(false));
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

  it('names the clash with a fleet of the organization, whatever the case', async () => {
    const user = userEvent.setup();
    const { field, create } = renderDialog();
    await waitFor(() => expect(create.disabled).toBe(false));
    await user.clear(field);
    await user.type(field, 'Taken-Name');
    expect(
      screen.getByText('This name is already used by another fleet in the organization'),
    ).toBeTruthy();
    expect(create.disabled).toBe(true);
  });
});
