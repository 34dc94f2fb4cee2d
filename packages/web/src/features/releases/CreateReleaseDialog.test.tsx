// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi, type FakeApi } from '../../test-support/fake-api.js';
import { fleetMember } from '../../test-support/fixtures.js';
import { fleetRow, fleetFixture } from '../../test-support/fleet-helpers.js';
import { fill } from '../../test-support/variables-pages.js';
import { releaseRow } from '../../test-support/release-fixtures.js';
import { renderReleasePages } from '../../test-support/release-pages.js';

afterEach(cleanup);

const buildPath = '/builder/v1/applications/12/releases';

// The builder's answer, written by the test as it goes (NDJSON events).
const streamedBuild = (api: FakeApi) => {
  const bodies: unknown[] = [];
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  api.on('POST', buildPath, (body) => {
    bodies.push(body);
    return {
      status: 200,
      stream: new ReadableStream<Uint8Array>({
        start: (c) => {
          controller = c;
        },
      }),
    };
  });
  const send = (...events: object[]) =>
    controller?.enqueue(encoder.encode(events.map((e) => `${JSON.stringify(e)}\n`).join('')));
  return { bodies, send, end: () => controller?.close() };
};

const openDialog = async (
  builder: { buildsImages: boolean; unavailableReason: string | null } = {
    buildsImages: true,
    unavailableReason: null,
  },
) => {
  const api = createFakeApi({
    user_application_membership: [fleetMember('developer')],
    application: [fleetRow(fleetFixture(), { owns__release: [releaseRow(1)] })],
    release: [releaseRow(1)],
  });
  api.on('GET', '/config', () => ({ status: 200, body: { deployment: null, builder } }));
  const build = streamedBuild(api);
  renderReleasePages(api, '/fleets/12/releases');
  const user = userEvent.setup();
  await screen.findByRole('table', { name: 'Releases' });
  await user.click(screen.getByRole('button', { name: 'Create release' }));
  const dialog = await screen.findByRole('dialog', { name: 'Create release' });
  return { api, build, user, dialog };
};

const logText = async (dialog: HTMLElement) =>
  (await within(dialog).findByLabelText('Build log')).textContent;

describe('CreateReleaseDialog', { timeout: 60_000 }, () => {
  it('uploads a project and shows the build log live, line by line, then the release', async () => {
    const { build, user, dialog } = await openDialog();
    const create = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Create' });
    expect(create.disabled).toBe(true);
    const project = new File([new Uint8Array([31, 139])], 'project.tar.gz');
    await user.upload(within(dialog).getByLabelText('Project file'), project);
    await user.click(create);
    build.send({ line: '[web] Using image nginx:1.27' });
    // Shown while the build still runs.
    await within(dialog).findByText('[web] Using image nginx:1.27');
    expect(within(dialog).getByRole('button', { name: 'Creating…' })).toBeTruthy();
    build.send(
      { line: 'Build succeeded' },
      { result: { releaseId: 7, status: 'success', log: ['[web] Using image nginx:1.27'] } },
    );
    build.end();
    const open = await within(dialog).findByRole('link', { name: 'Open release' });
    expect(open.getAttribute('href')).toBe('/fleets/12/releases/7');
    expect(await logText(dialog)).toBe('[web] Using image nginx:1.27\nBuild succeeded');
    expect(build.bodies).toHaveLength(1);
    expect(build.bodies[0]).toBeInstanceOf(Blob);
  });

  it('builds from a URL and shows the refusal that ends the stream', async () => {
    const { build, user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'From a URL' }));
    const create = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Create' });
    const field = within(dialog).getByLabelText('Tarball URL');
    await fill(user, field, 'not a url');
    expect(within(dialog).getByText('An http or https URL')).toBeTruthy();
    expect(create.disabled).toBe(true);
    await fill(user, field, 'https://example.com/p.tar.gz');
    await user.click(create);
    build.send(
      { line: 'Downloading https://example.com/p.tar.gz' },
      { error: 'The project URL answered 404 Not Found' },
    );
    build.end();
    expect(await within(dialog).findByText('The project URL answered 404 Not Found')).toBeTruthy();
    expect(await logText(dialog)).toBe('Downloading https://example.com/p.tar.gz');
    expect(build.bodies).toEqual([{ url: 'https://example.com/p.tar.gz' }]);
  });

  it('keeps the last 2,999 lines of a long log', async () => {
    const { build, user, dialog } = await openDialog();
    await user.upload(
      within(dialog).getByLabelText('Project file'),
      new File(['x'], 'project.tar'),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    build.send(...Array.from({ length: 3001 }, (_, index) => ({ line: `line ${index + 1}` })));
    await within(dialog).findByText(/line 3001$/);
    const lines = (await logText(dialog))?.split('\n') ?? [];
    expect(lines).toHaveLength(2999);
    expect(lines[0]).toBe('line 3');
  });

  it('says when this server builds no images, and why', async () => {
    const { dialog } = await openDialog({
      buildsImages: false,
      unavailableReason: 'no container engine is configured (FLOTILLA_BUILDER_DOCKER_HOST)',
    });
    const note = await within(dialog).findByRole('alert');
    expect(note.textContent).toMatch(
      /^This server does not build images: no container engine is configured \(FLOTILLA_BUILDER_DOCKER_HOST\)\. Services naming an image: are released/,
    );
    expect(within(dialog).queryByText(/are built on this server/)).toBeNull();
  });

  it('says that services with a build step are built when this server builds images', async () => {
    const { dialog } = await openDialog();
    expect(await within(dialog).findByText(/are built on this server/)).toBeTruthy();
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });

  it('tells a cancelled build from a failed one', async () => {
    const { build, user, dialog } = await openDialog();
    await user.upload(
      within(dialog).getByLabelText('Project file'),
      new File(['x'], 'project.tar'),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    build.send({ result: { releaseId: 8, status: 'cancelled', log: ['Build cancelled'] } });
    build.end();
    expect(
      await within(dialog).findByText('The release was created, but its build was cancelled.'),
    ).toBeTruthy();
  });

  it("shows the builder's refusal before the build starts", async () => {
    const { api, user, dialog } = await openDialog();
    api.on('POST', buildPath, () => ({
      status: 400,
      text: 'docker-compose.yml is not valid YAML (line 1): bad',
    }));
    await user.upload(
      within(dialog).getByLabelText('Project file'),
      new File(['x'], 'project.tar'),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText(/is not valid YAML/)).toBeTruthy();
  });
});
