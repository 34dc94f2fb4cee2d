// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogueRelease, catalogueWorld } from '../../test-support/catalogue-fixtures.js';
import { renderConsoleAt } from '../../test-support/render-console.js';

afterEach(cleanup);

const firstLoad = { timeout: 15_000 };

const catalogue = () => [
  catalogueRelease(1, { version: '6.1.0', phase: 'next', notes: '* Kernel 6.1' }),
  catalogueRelease(4, { kind: 'supervisor', version: '16.2.0' }),
];

const openCatalogue = async (world: ReturnType<typeof catalogueWorld>) => {
  renderConsoleAt(world.api.client, '/admin/os-catalogue');
  await screen.findByRole('table', { name: 'OS releases' }, firstLoad);
  return userEvent.setup();
};

const choose = async (user: ReturnType<typeof userEvent.setup>, field: RegExp, option: string) => {
  await user.click(screen.getByRole('combobox', { name: field }));
  await user.click(await screen.findByRole('option', { name: option }));
};

// Typing into several fields is slow on a busy machine.
// Longer texts are pasted: typing them key by key into MUI fields is slow in jsdom.
const paste = async (
  user: ReturnType<typeof userEvent.setup>,
  field: HTMLElement,
  text: string,
) => {
  await user.click(field);
  await user.paste(text);
};

describe('the OS catalogue dialogs', { timeout: 60_000 }, () => {
  it('adds an OS release, checking the version first', async () => {
    const world = catalogueWorld(catalogue());
    const user = await openCatalogue(world);
    await user.click(screen.getByRole('button', { name: 'Add release' }));
    const dialog = screen.getByRole('dialog', { name: 'Add a release' });
    await user.click(within(dialog).getByRole('button', { name: 'Add release' }));
    expect(within(dialog).getByText('Choose a device type')).toBeTruthy();
    expect(within(dialog).getByText('The version is required')).toBeTruthy();
    await choose(user, /Device type/, 'Raspberry Pi 3 (raspberrypi3)');
    await user.type(within(dialog).getByRole('textbox', { name: /Version/ }), '6.2');
    await user.click(within(dialog).getByRole('button', { name: 'Add release' }));
    expect(within(dialog).getByText(/The version must be a semantic version/)).toBeTruthy();
    expect(world.writes).toEqual([]);
    await user.type(within(dialog).getByRole('textbox', { name: /Version/ }), '.0+rev1');
    await choose(user, /Variant/, 'Development (dev)');
    await choose(user, /Phase/, 'current');
    await paste(
      user,
      within(dialog).getByRole('textbox', { name: 'Updater image' }),
      'registry.test/os:6.2',
    );
    await paste(
      user,
      within(dialog).getByRole('textbox', { name: 'Release notes' }),
      '* Engine 25',
    );
    expect(within(dialog).getByLabelText('Release notes preview').textContent).toContain(
      'Engine 25',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Add release' }));
    expect(
      await screen.findByText('raspberrypi3 6.2.0+rev1 dev was added to the catalogue'),
    ).toBeTruthy();
    expect(world.writes).toEqual([
      {
        method: 'POST',
        path: '/admin/v1/host-os/releases',
        body: {
          kind: 'os',
          deviceType: 'raspberrypi3',
          version: '6.2.0+rev1',
          variant: 'dev',
          phase: 'current',
          knownIssues: null,
          notes: '* Engine 25',
          updaterImage: 'registry.test/os:6.2',
          invalidated: false,
        },
      },
    ]);
    const os = screen.getByRole('table', { name: 'OS releases' });
    expect(await within(os).findByText('6.2.0+rev1')).toBeTruthy();
  });

  it("adds a supervisor release for an architecture and shows the server's refusal", async () => {
    const world = catalogueWorld(catalogue());
    world.refuseNext('POST', '/admin/v1/host-os/releases', {
      status: 409,
      body: { error: 'conflict', message: 'supervisor aarch64 16.2.0 is already in the catalogue' },
    });
    const user = await openCatalogue(world);
    await user.click(screen.getByRole('button', { name: 'Add release' }));
    const dialog = screen.getByRole('dialog', { name: 'Add a release' });
    await user.click(within(dialog).getByRole('button', { name: 'Supervisor' }));
    expect(within(dialog).queryByRole('combobox', { name: /Variant/ })).toBeNull();
    await user.click(within(dialog).getByRole('combobox', { name: /CPU architecture/ }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['aarch64', 'amd64', 'armv7hf']);
    await user.click(screen.getByRole('option', { name: 'aarch64' }));
    await user.type(within(dialog).getByRole('textbox', { name: /Version/ }), '16.2.0');
    await user.click(within(dialog).getByRole('button', { name: 'Add release' }));
    expect(await within(dialog).findByText(/16.2.0 is already in the catalogue/)).toBeTruthy();
    expect(world.writes.at(-1)?.body).toEqual({
      kind: 'supervisor',
      cpuArchitecture: 'aarch64',
      version: '16.2.0',
      phase: null,
      knownIssues: null,
      notes: null,
      updaterImage: null,
      invalidated: false,
    });
  });

  it('edits what describes a release, sending only what changed', async () => {
    const world = catalogueWorld(catalogue());
    const user = await openCatalogue(world);
    await user.click(screen.getByRole('button', { name: 'Edit raspberrypi4-64 6.1.0 prod' }));
    const dialog = screen.getByRole('dialog', {
      name: 'Edit OS release raspberrypi4-64 6.1.0 prod',
    });
    expect(within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Save' }).disabled).toBe(
      true,
    );
    await choose(user, /Phase/, 'sunset');
    await paste(user, within(dialog).getByRole('textbox', { name: 'Known issues' }), 'Slow boot');
    const notes = within(dialog).getByRole('textbox', { name: 'Release notes' });
    await user.clear(notes);
    await paste(user, within(dialog).getByRole('textbox', { name: 'Updater image' }), 'bad image');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText(/must be an image reference without spaces/)).toBeTruthy();
    await user.clear(within(dialog).getByRole('textbox', { name: 'Updater image' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('raspberrypi4-64 6.1.0 prod was saved')).toBeTruthy();
    expect(world.writes).toEqual([
      {
        method: 'PATCH',
        path: '/admin/v1/host-os/releases/1',
        body: { phase: 'sunset', knownIssues: 'Slow boot', notes: null },
      },
    ]);
    const os = screen.getByRole('table', { name: 'OS releases' });
    expect(await within(os).findByText('Slow boot')).toBeTruthy();
  });

  it('asks an ESR release for its base version, and only an ESR release', async () => {
    const world = catalogueWorld([
      ...catalogue(),
      catalogueRelease(2, { version: '2024.4.0', baseVersion: '6.0.13' }),
    ]);
    const user = await openCatalogue(world);
    await user.click(screen.getByRole('button', { name: 'Edit raspberrypi4-64 6.1.0 prod' }));
    const regular = screen.getByRole('dialog', { name: /^Edit OS release raspberrypi4-64 6.1.0/ });
    expect(within(regular).queryByRole('textbox', { name: 'ESR base version' })).toBeNull();
    await user.click(within(regular).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Edit raspberrypi4-64 2024.4.0 prod' }));
    const dialog = screen.getByRole('dialog', {
      name: 'Edit OS release raspberrypi4-64 2024.4.0 prod',
    });
    const base = within(dialog).getByRole<HTMLInputElement>('textbox', {
      name: 'ESR base version',
    });
    expect(base.value).toBe('6.0.13');
    await user.clear(base);
    await paste(user, base, '2023.1.0');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      within(dialog).getByText('The base version must be a regular (non-ESR) version'),
    ).toBeTruthy();
    expect(world.writes).toEqual([]);
    await user.clear(base);
    await paste(user, base, '6.1.0');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('raspberrypi4-64 2024.4.0 prod was saved')).toBeTruthy();
    expect(world.writes).toEqual([
      {
        method: 'PATCH',
        path: '/admin/v1/host-os/releases/2',
        body: { baseVersion: '6.1.0' },
      },
    ]);
  });

  it("imports a catalogue file and shows the server's counts", async () => {
    const world = catalogueWorld(catalogue());
    const user = await openCatalogue(world);
    await user.click(screen.getByRole('button', { name: 'Import catalogue file' }));
    const dialog = screen.getByRole('dialog', { name: 'Import a catalogue file' });
    const file = {
      releases: [{ kind: 'supervisor', cpuArchitecture: 'amd64', version: '16.3.0' }],
    };
    await user.upload(
      within(dialog).getByLabelText('Catalogue file'),
      new File([JSON.stringify(file)], 'catalogue.json', { type: 'application/json' }),
    );
    expect(await within(dialog).findByText('catalogue.json')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(await within(dialog).findByText('2 created, 1 updated, 3 unchanged')).toBeTruthy();
    expect(world.writes).toEqual([
      { method: 'POST', path: '/admin/v1/host-os/catalogue', body: file },
    ]);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('names the bad entry the server refused, and a file that is not JSON', async () => {
    const world = catalogueWorld(catalogue());
    world.refuseNext('POST', '/admin/v1/host-os/catalogue', {
      status: 400,
      body: {
        error: 'bad_request',
        message: 'releases[1] (os toaster-9000 7.0.0): unknown device type toaster-9000',
      },
    });
    const user = await openCatalogue(world);
    await user.click(screen.getByRole('button', { name: 'Import catalogue file' }));
    const dialog = screen.getByRole('dialog', { name: 'Import a catalogue file' });
    await user.upload(
      within(dialog).getByLabelText('Catalogue file'),
      new File(['{"releases": ['], 'broken.json'),
    );
    expect(await within(dialog).findByText(/broken.json is not a JSON file/)).toBeTruthy();
    const importButton = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Import' });
    expect(importButton.disabled).toBe(true);
    // A new input after each choice: the same file can be chosen again once fixed.
    await user.upload(
      within(dialog).getByLabelText('Catalogue file'),
      new File(['{"releases": []}'], 'catalogue.json'),
    );
    await waitFor(() => expect(importButton.disabled).toBe(false));
    await user.click(importButton);
    expect(await within(dialog).findByText('Nothing was imported')).toBeTruthy();
    expect(within(dialog).getByText(/unknown device type toaster-9000/)).toBeTruthy();
    expect(world.writes).toHaveLength(1);
  });
});
