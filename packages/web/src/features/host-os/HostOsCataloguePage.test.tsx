// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogueRelease, catalogueWorld } from '../../test-support/catalogue-fixtures.js';
import { renderConsoleAt } from '../../test-support/render-console.js';

afterEach(cleanup);

// The first import of a screen's chunk is transformed on demand: on a busy machine that alone can
// exceed the default wait.
const firstLoad = { timeout: 15_000 };

const catalogue = () => [
  catalogueRelease(1, {
    version: '6.1.0',
    phase: 'next',
    knownIssues: 'Wi-Fi drops after resume',
    updaterImage: 'registry.example.com/balena-os/raspberrypi4-64:6.1.0',
    devices: 2,
  }),
  catalogueRelease(2, { version: '6.0.13', phase: 'current', invalidated: true }),
  catalogueRelease(3, { deviceType: 'raspberrypi3', cpuArchitecture: 'armv7hf', variant: 'dev' }),
  catalogueRelease(4, { kind: 'supervisor', version: '16.2.0' }),
];

const osTable = () => screen.findByRole('table', { name: 'OS releases' }, firstLoad);

describe('HostOsCataloguePage', { timeout: 30_000 }, () => {
  it('lists OS releases by device type and supervisor releases by architecture', async () => {
    const { api } = catalogueWorld(catalogue());
    renderConsoleAt(api.client, '/admin/os-catalogue');
    const os = await osTable();
    expect(within(os).getAllByRole('row')).toHaveLength(4);
    expect(within(os).getByText('Wi-Fi drops after resume')).toBeTruthy();
    expect(
      within(os).getByText('registry.example.com/balena-os/raspberrypi4-64:6.1.0'),
    ).toBeTruthy();
    expect(within(os).getByText('Invalidated')).toBeTruthy();
    expect(within(os).getByText('Development')).toBeTruthy();
    const [, newest] = within(os).getAllByRole('row');
    expect(
      within(newest ?? os)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      'raspberrypi4-64',
      '6.1.0',
      'Production',
      'next',
      'Wi-Fi drops after resume',
      'registry.example.com/balena-os/raspberrypi4-64:6.1.0',
      '—',
      '2',
      '',
    ]);
    const supervisors = screen.getByRole('table', { name: 'Supervisor releases' });
    expect(within(supervisors).getByText('16.2.0')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Device type' }));
    await user.click(screen.getByRole('option', { name: 'raspberrypi3' }));
    expect(within(os).getAllByRole('row')).toHaveLength(2);
    expect(within(os).queryByText('6.1.0')).toBeNull();
  });

  it('says how to start when the catalogue is empty', async () => {
    const { api } = catalogueWorld([]);
    renderConsoleAt(api.client, '/admin/os-catalogue');
    expect(
      await screen.findByText(
        'No OS releases yet — add one or import a catalogue file.',
        undefined,
        firstLoad,
      ),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add release' })).toBeTruthy();
  });

  it('shows a failed load with a retry', async () => {
    const { api } = catalogueWorld([]);
    let fail = true;
    api.on('GET', '/admin/v1/host-os/releases', () =>
      fail
        ? { status: 500, text: 'The database is unavailable' }
        : { status: 200, body: catalogue() },
    );
    renderConsoleAt(api.client, '/admin/os-catalogue');
    expect(
      await screen.findByText(/The database is unavailable/, undefined, firstLoad),
    ).toBeTruthy();
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(await osTable()).toBeTruthy();
  });

  it('sends a user who is not a platform administrator away, asking the server nothing', async () => {
    const { api } = catalogueWorld(catalogue(), {});
    let asked = false;
    api.on('GET', '/admin/v1/host-os/releases', () => {
      asked = true;
      return { status: 401, text: 'Unauthorized' };
    });
    const { router } = renderConsoleAt(api.client, '/admin/os-catalogue');
    await waitFor(() => expect(router.state.location.pathname).toBe('/fleets'), firstLoad);
    expect(asked).toBe(false);
  });

  it('is reached from the admin page', async () => {
    const { api } = catalogueWorld(catalogue());
    api.on('GET', '/admin/v1/users', () => ({ status: 200, body: { total: 0, users: [] } }));
    const { router } = renderConsoleAt(api.client, '/admin');
    await userEvent
      .setup()
      .click(await screen.findByRole('link', { name: 'OS catalogue' }, firstLoad));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/os-catalogue'));
    expect(await osTable()).toBeTruthy();
  });

  it('invalidates a release and offers it again', async () => {
    const { api, writes } = catalogueWorld(catalogue());
    renderConsoleAt(api.client, '/admin/os-catalogue');
    const os = await osTable();
    const user = userEvent.setup();
    await user.click(
      within(os).getByRole('button', { name: 'Invalidate raspberrypi4-64 6.1.0 prod' }),
    );
    expect(await screen.findByText('raspberrypi4-64 6.1.0 prod is invalidated')).toBeTruthy();
    await user.click(
      await within(os).findByRole('button', { name: 'Restore raspberrypi4-64 6.1.0 prod' }),
    );
    expect(await screen.findByText('raspberrypi4-64 6.1.0 prod is offered again')).toBeTruthy();
    expect(writes.map(({ method, path, body }) => [method, path, body])).toEqual([
      ['PATCH', '/admin/v1/host-os/releases/1', { invalidated: true }],
      ['PATCH', '/admin/v1/host-os/releases/1', { invalidated: false }],
    ]);
  });

  it('removes a release after confirmation', async () => {
    const { api, writes } = catalogueWorld(catalogue());
    renderConsoleAt(api.client, '/admin/os-catalogue');
    const user = userEvent.setup();
    await user.click(
      within(await osTable()).getByRole('button', { name: 'Delete raspberrypi3 6.0.13 dev' }),
    );
    const dialog = screen.getByRole('dialog', {
      name: 'Remove OS release raspberrypi3 6.0.13 dev?',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(
      await screen.findByText('raspberrypi3 6.0.13 dev was removed from the catalogue'),
    ).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Development')).toBeNull());
    expect(writes).toEqual([
      { method: 'DELETE', path: '/admin/v1/host-os/releases/3', body: undefined },
    ]);
  });

  it('explains a release still in use and invalidates it instead', async () => {
    const { api, writes, refuseNext } = catalogueWorld(catalogue());
    refuseNext('DELETE', '/admin/v1/host-os/releases/1', {
      status: 409,
      body: {
        error: 'conflict',
        message: 'Release 1 is the OS or supervisor release of 3 device(s): invalidate it instead',
      },
    });
    renderConsoleAt(api.client, '/admin/os-catalogue');
    const user = userEvent.setup();
    await user.click(
      within(await osTable()).getByRole('button', { name: 'Delete raspberrypi4-64 6.1.0 prod' }),
    );
    const dialog = screen.getByRole('dialog');
    // The list's count warns first; the server, which another device may have reached since,
    // has the last word.
    expect(within(dialog).getByText('Still in use')).toBeTruthy();
    expect(within(dialog).getByText(/2 devices are told to run this release/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByText(/release of 3 device\(s\)/)).toBeTruthy();
    expect(within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Remove' }).disabled).toBe(
      true,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Invalidate instead' }));
    expect(await screen.findByText('raspberrypi4-64 6.1.0 prod is invalidated')).toBeTruthy();
    expect(writes.at(-1)).toEqual({
      method: 'PATCH',
      path: '/admin/v1/host-os/releases/1',
      body: { invalidated: true },
    });
  });

  it('uploads, links and removes the OS image Add device offers for a release', async () => {
    const { api, writes } = catalogueWorld(catalogue());
    renderConsoleAt(api.client, '/admin/os-catalogue');
    const user = userEvent.setup();
    const open = async () =>
      user.click(
        within(await osTable()).getByRole('button', {
          name: 'OS image of raspberrypi4-64 6.1.0 prod',
        }),
      );
    await open();
    let dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText(/No image yet/)).toBeTruthy();
    const upload = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Upload' });
    expect(upload.disabled).toBe(true);
    await user.upload(
      within(dialog).getByLabelText('Image file'),
      new File([new Uint8Array(16)], 'pi4.img', { type: 'application/octet-stream' }),
    );
    expect(within(dialog).getByText('pi4.img')).toBeTruthy();
    await user.click(upload);
    expect(
      await screen.findByText('raspberrypi4-64 6.1.0 prod has an OS image: Add device offers it'),
    ).toBeTruthy();
    expect(writes.at(-1)).toMatchObject({
      method: 'PUT',
      path: '/admin/v1/host-os/releases/1/image',
    });
    expect(await within(await osTable()).findByText('uploaded.img')).toBeTruthy();

    await open();
    dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText(/, uploaded/)).toBeTruthy();
    await user.type(
      within(dialog).getByLabelText("Or the image's public URL"),
      'https://images.example.com/pi4-6.1.0.img',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Fetch' }));
    await waitFor(() =>
      expect(writes.at(-1)).toEqual({
        method: 'POST',
        path: '/admin/v1/host-os/releases/1/image-link',
        body: { url: 'https://images.example.com/pi4-6.1.0.img' },
      }),
    );
    expect(await within(await osTable()).findByText('pi4-6.1.0.img')).toBeTruthy();

    await open();
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove image' }),
    );
    expect(
      await screen.findByText('The OS image of raspberrypi4-64 6.1.0 prod was removed'),
    ).toBeTruthy();
    expect(writes.at(-1)).toMatchObject({
      method: 'DELETE',
      path: '/admin/v1/host-os/releases/1/image',
    });
  });
});
