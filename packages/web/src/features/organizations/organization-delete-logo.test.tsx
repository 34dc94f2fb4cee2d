// @vitest-environment jsdom
import { logoMaxBytes } from '@flotilla/shared/constants/limits';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setAppsEnabled } from '../../ui/useAppsEnabled.js';
import { renderAt } from '../../test-support/render-organization.js';
import { acmeId } from '../../test-support/organization-fixtures.js';

afterEach(() => {
  cleanup();
  setAppsEnabled(false);
});

const openDelete = async (user: ReturnType<typeof renderAt>['user']) => {
  const row = (await screen.findByRole('link', { name: 'Acme' })).closest('tr');
  if (!row) throw new Error('no row for Acme');
  await user.click(within(row).getByRole('button', { name: 'Delete' }));
  return screen.findByRole('dialog');
};

describe('deleting an organization', { timeout: 60_000 }, () => {
  it('with fleets: after the typed name, deletes its fleets then the organization', async () => {
    const { api, user } = renderAt('/orgs');
    const dialog = await openDelete(user);
    await user.type(within(dialog).getByLabelText('Type "Acme" to confirm'), 'Acme');
    await user.click(within(dialog).getByRole('button', { name: 'Delete organization' }));
    expect(await screen.findByText('Organization deleted')).toBeTruthy();
    expect(api.writes).toEqual([
      {
        method: 'DELETE',
        resource: 'application',
        id: undefined,
        body: undefined,
        filter: `organization eq ${acmeId}`,
      },
      { method: 'DELETE', resource: 'organization', id: acmeId, body: undefined },
    ]);
    expect(await screen.findByText('No organizations yet')).toBeTruthy();
  });

  it('without fleets: no typed name, one request', async () => {
    const { api, user } = renderAt('/orgs', 'administrator', (data) => {
      data.organization = (data.organization ?? []).map((row) => ({ ...row, application: [] }));
    });
    const dialog = await openDelete(user);
    expect(within(dialog).queryByLabelText('Type "Acme" to confirm')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Delete organization' }));
    expect(await screen.findByText('Organization deleted')).toBeTruthy();
    expect(api.writes).toEqual([
      { method: 'DELETE', resource: 'organization', id: acmeId, body: undefined },
    ]);
  });

  it('a refusal shows in the dialog, which stays open', async () => {
    const { api, user } = renderAt('/orgs');
    api.refuseNext('DELETE', 'organization', acmeId, 'Only its sole administrator may delete it');
    const dialog = await openDelete(user);
    await user.type(within(dialog).getByLabelText('Type "Acme" to confirm'), 'Acme');
    await user.click(within(dialog).getByRole('button', { name: 'Delete organization' }));
    expect(
      await within(dialog).findByText('Request error: Only its sole administrator may delete it'),
    ).toBeTruthy();
    expect(screen.queryByText('Organization deleted')).toBeNull();
  });

  it("the fleet count's label follows the classes shown", async () => {
    renderAt('/orgs');
    expect(await screen.findByRole('columnheader', { name: 'Fleets and blocks' })).toBeTruthy();
    cleanup();
    setAppsEnabled(true);
    renderAt('/orgs');
    expect(
      await screen.findByRole('columnheader', { name: 'Fleets, apps and blocks' }),
    ).toBeTruthy();
  });
});

describe('the organization summary', { timeout: 60_000 }, () => {
  it('counts apps only when apps are shown', async () => {
    renderAt(`/orgs/${acmeId}`);
    await screen.findByRole('heading', { name: 'Logo' });
    expect(screen.queryAllByRole('link', { name: 'Apps' })).toEqual([]);
    cleanup();
    setAppsEnabled(true);
    renderAt(`/orgs/${acmeId}`);
    await screen.findByRole('heading', { name: 'Logo' });
    const apps = screen.getAllByRole('link', { name: 'Apps' });
    expect(apps.map((link) => link.getAttribute('href'))).toContain(`/orgs/${acmeId}/apps`);
  });
});

describe('the organization logo', { timeout: 60_000 }, () => {
  const png = (size: number) => new File([new Uint8Array(size)], 'logo.png', { type: 'image/png' });

  it('uploads the chosen file and shows the new logo', async () => {
    const { api, user } = renderAt(`/orgs/${acmeId}`);
    const received: Blob[] = [];
    api.on('PUT', `/org/v1/organization/${acmeId}/logo`, (body) => {
      if (!(body instanceof Blob)) throw new Error('the upload is not a file');
      received.push(body);
      const logo = { href: `/org/v1/organization/${acmeId}/logo/1.png` };
      api.data.organization = (api.data.organization ?? []).map((row) => ({
        ...row,
        logo_image: logo,
      }));
      return { status: 200, body: { logo_image: logo } };
    });
    await user.upload(await screen.findByLabelText('Logo file'), png(1_000));
    await waitFor(() =>
      expect(received.map((blob) => [blob.type, blob.size])).toEqual([['image/png', 1_000]]),
    );
    expect(await screen.findByRole('button', { name: 'Remove logo' })).toBeTruthy();
    const logo = screen.getAllByRole('img', { name: 'Acme logo' }).at(-1);
    expect(logo?.getAttribute('src')).toContain(`/org/v1/organization/${acmeId}/logo/1.png`);
  });

  it('refuses a file over the limit before sending it', async () => {
    const { user } = renderAt(`/orgs/${acmeId}`);
    await user.upload(await screen.findByLabelText('Logo file'), png(logoMaxBytes + 1));
    expect(await screen.findByText('The logo must be at most 1,000,000 bytes')).toBeTruthy();
  });

  it("shows the server's refusal", async () => {
    const { api, user } = renderAt(`/orgs/${acmeId}`);
    api.on('PUT', `/org/v1/organization/${acmeId}/logo`, () => ({
      status: 400,
      text: 'The logo must be a PNG or JPEG image',
    }));
    await user.upload(await screen.findByLabelText('Logo file'), png(10));
    expect(
      await screen.findByText('Request error: The logo must be a PNG or JPEG image'),
    ).toBeTruthy();
  });
});
