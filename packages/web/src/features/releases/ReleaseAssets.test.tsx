// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientProvider } from '../../api/client.js';
import { createFakeApi } from '../../test-support/fake-api.js';
import { fleetMember } from '../../test-support/fixtures.js';
import { fleetRow, fleetFixture } from '../../test-support/fleet-helpers.js';
import { assetTree } from './asset-tree.js';
import { ReleaseAssets } from './ReleaseAssets.js';
import { releaseRow } from '../../test-support/release-fixtures.js';
import { renderReleasePages } from '../../test-support/release-pages.js';

afterEach(cleanup);

const file = (name: string, size: number) => ({
  filename: name,
  content_type: 'application/octet-stream',
  size,
  href: `http://api.test/release-asset/v1/${'a'.repeat(32)}/${name}`,
});

const setup = (assets: unknown[], refuse = false) => {
  const release = releaseRow(5, { release_asset: assets });
  const api = createFakeApi({
    user_application_membership: [fleetMember('observer')],
    application: [fleetRow(fleetFixture(), { owns__release: [release] })],
    release: [release],
  });
  if (refuse) {
    api.refuseNextRead('release', 'boom', {
      matches: (url) => url.search.includes('release_asset'),
    });
  }
  renderReleasePages(api, '/fleets/12/releases/5');
  return api;
};

const section = () => screen.findByRole('region', { name: 'Assets' });

describe('release assets', { timeout: 30_000 }, () => {
  it('shows the keys as a tree of folders and files with sizes and download links', async () => {
    setup([
      { id: 1, asset_key: 'docs/manual.pdf', asset: file('manual.pdf', 2_500_000) },
      { id: 2, asset_key: 'notes.txt', asset: file('notes.txt', 12) },
      { id: 3, asset_key: 'docs/img/logo.png', asset: file('logo.png', 3_000) },
      { id: 4, asset_key: 'pending.bin', asset: null },
    ]);
    const assets = await section();
    const docs = await within(assets).findByRole('listitem', { name: 'Folder docs' });
    const manual = within(docs).getByRole('listitem', { name: 'File docs/manual.pdf' });
    expect(manual.textContent).toContain('2.5 MB');
    expect(
      within(manual).getByRole('link', { name: 'Download docs/manual.pdf' }).getAttribute('href'),
    ).toBe(file('manual.pdf', 0).href);
    const img = within(docs).getByRole('listitem', { name: 'Folder docs/img' });
    expect(within(img).getByRole('listitem', { name: 'File docs/img/logo.png' })).toBeTruthy();
    expect(within(assets).getByRole('listitem', { name: 'File notes.txt' }).textContent).toContain(
      '12 B',
    );
    const pending = within(assets).getByRole('listitem', { name: 'File pending.bin' });
    expect(pending.textContent).toContain('No file uploaded');
    expect(within(pending).queryByRole('link')).toBeNull();
  });

  it('shows a placeholder while the assets load', async () => {
    const release = releaseRow(5, { release_asset: [{ id: 1, asset_key: 'a.txt', asset: null }] });
    const api = createFakeApi({ release: [release] });
    render(
      <ClientProvider client={api.client}>
        <QueryClientProvider client={new QueryClient()}>
          <ReleaseAssets fleetId={12} releaseId={5} />
        </QueryClientProvider>
      </ClientProvider>,
    );
    // A query is never answered during the first render.
    expect(screen.getByLabelText('Loading assets')).toBeTruthy();
    expect(await screen.findByRole('listitem', { name: 'File a.txt' })).toBeTruthy();
    expect(screen.queryByLabelText('Loading assets')).toBeNull();
  });

  it('says when there are no assets', async () => {
    setup([]);
    expect(await within(await section()).findByText('No assets')).toBeTruthy();
  });

  it('shows an error when the assets cannot be read', async () => {
    setup([], true);
    const assets = await section();
    expect(await within(assets).findByText('Could not load the release assets.')).toBeTruthy();
  });
});

describe('assetTree', () => {
  it('puts folders before files, sorts by name and skips empty segments', () => {
    const entry = (id: number, key: string) => ({ id, asset_key: key, asset: null });
    const tree = assetTree([entry(1, 'b.txt'), entry(2, '/z//c.txt'), entry(3, 'a.txt')]);
    expect(tree.map((node) => [node.kind, node.name])).toEqual([
      ['folder', 'z'],
      ['file', 'a.txt'],
      ['file', 'b.txt'],
    ]);
    const folder = tree[0];
    expect(folder?.kind === 'folder' ? folder.children.map((node) => node.path) : []).toEqual([
      '/z//c.txt',
    ]);
  });
});
