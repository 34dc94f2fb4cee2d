import type { CatalogueRelease } from '@flotilla/shared/host-os/catalogue';
import type { OsImage } from '@flotilla/shared/host-os/os-image';
import { createFakeApi, type FakeApi, type FakeReply, type FakeSession } from './fake-api.js';
import { answerBoot } from './render-console.js';

// The host OS catalogue's admin routes over a list the test can read and change: the fake keeps
// what was added, edited and removed, as the server would.

export const catalogueAdmin: FakeSession = { userId: 7, permissions: ['admin.home'] };

export const catalogueRelease = (
  id: number,
  fields: Partial<CatalogueRelease> = {},
): CatalogueRelease => {
  const kind = fields.kind ?? 'os';
  const deviceType = kind === 'os' ? (fields.deviceType ?? 'raspberrypi4-64') : null;
  const cpuArchitecture = fields.cpuArchitecture ?? 'aarch64';
  const version = fields.version ?? '6.0.13';
  return {
    id,
    kind,
    application:
      kind === 'os' ? `balena_os/${deviceType ?? ''}` : `balena_os/${cpuArchitecture}-supervisor`,
    deviceType,
    cpuArchitecture,
    version,
    rawVersion: version,
    variant: kind === 'os' ? 'prod' : '',
    phase: null,
    knownIssues: null,
    notes: null,
    updaterImage: null,
    baseVersion: null,
    invalidated: false,
    createdAt: '2026-11-01T10:00:00.000Z',
    devices: 0,
    ...fields,
  };
};

const deviceTypeRows = [
  { id: 30, slug: 'raspberrypi4-64', name: 'Raspberry Pi 4 (64bit)', arch: [4, 'aarch64'] },
  { id: 31, slug: 'genericx86-64-ext', name: 'Generic x86_64', arch: [2, 'amd64'] },
  { id: 32, slug: 'raspberrypi3', name: 'Raspberry Pi 3', arch: [5, 'armv7hf'] },
] as const;

export type CatalogueWorld = {
  api: FakeApi;
  releases: CatalogueRelease[];
  // The provisioning images the server holds (uploads and links add one, named as given).
  images: OsImage[];
  // Every admin write, in order: method, path and body.
  writes: { method: string; path: string; body: unknown }[];
  // The next write to `path` with `method` answers this instead.
  refuseNext: (method: string, path: string, reply: FakeReply) => void;
};

const releasesPath = '/admin/v1/host-os/releases';

export const catalogueWorld = (
  initial: CatalogueRelease[],
  session: FakeSession = catalogueAdmin,
): CatalogueWorld => {
  const api = createFakeApi(
    {
      application: [],
      device_type: deviceTypeRows.map(({ id, slug, name, arch }) => ({
        id,
        slug,
        name,
        is_of__cpu_architecture: [{ id: arch[0], slug: arch[1] }],
      })),
    },
    session,
  );
  answerBoot(api);
  const releases = [...initial];
  const writes: CatalogueWorld['writes'] = [];
  const refusals = new Map<string, FakeReply>();
  let nextId = 100;
  const write = (method: string, path: string, answer: (body: unknown) => FakeReply) =>
    api.on(method, path, (body) => {
      writes.push({ method, path, body });
      const refusal = refusals.get(`${method} ${path}`);
      refusals.delete(`${method} ${path}`);
      return refusal ?? answer(body);
    });
  api.on('GET', releasesPath, () => ({ status: 200, body: releases }));
  write('POST', releasesPath, (body) => {
    const added = catalogueRelease(nextId++, fieldsOf(body));
    releases.push(added);
    return { status: 201, body: added };
  });
  for (const release of initial) {
    const path = `${releasesPath}/${release.id}`;
    write('PATCH', path, (body) => {
      const index = releases.findIndex((row) => row.id === release.id);
      const current = releases[index] ?? release;
      const edited = { ...current, ...fieldsOf(body) };
      releases.splice(index, 1, edited);
      return { status: 200, body: edited };
    });
    write('DELETE', path, () => {
      releases.splice(
        releases.findIndex((row) => row.id === release.id),
        1,
      );
      return { status: 204 };
    });
  }
  const images: OsImage[] = [];
  api.on('GET', '/admin/v1/host-os/images', () => ({ status: 200, body: images }));
  const keepImage = (release: number, filename: string, sourceUrl: string | null): FakeReply => {
    const image: OsImage = {
      release,
      deviceType: 'raspberrypi4-64',
      version: '6.0.13',
      variant: 'prod',
      filename,
      size: 734_003_200,
      sha256: 'ab'.repeat(32),
      sourceUrl,
      createdAt: '2026-11-02T10:00:00.000Z',
    };
    images.splice(0, images.length, ...images.filter((row) => row.release !== release), image);
    return { status: 201, body: image };
  };
  for (const release of initial) {
    const path = `${releasesPath}/${release.id}/image`;
    write('PUT', path, () => keepImage(release.id, 'uploaded.img', null));
    write('POST', `${path}-link`, (body) => {
      const url = isRecord(body) && typeof body.url === 'string' ? body.url : '';
      return keepImage(release.id, url.split('/').pop() ?? 'linked.img', url);
    });
    write('DELETE', path, () => {
      images.splice(
        images.findIndex((row) => row.release === release.id),
        1,
      );
      return { status: 204 };
    });
  }
  write('POST', '/admin/v1/host-os/catalogue', () => ({
    status: 200,
    body: { created: 2, updated: 1, unchanged: 3 },
  }));
  return {
    api,
    releases,
    images,
    writes,
    refuseNext: (method, path, reply) => refusals.set(`${method} ${path}`, reply),
  };
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const textOrNull = (value: unknown): string | null | undefined =>
  typeof value === 'string' || value === null ? value : undefined;

// The fields of a POST or PATCH body the catalogue keeps (what the server would store).
const fieldsOf = (body: unknown): Partial<CatalogueRelease> => {
  if (!isRecord(body)) return {};
  const fields: Partial<CatalogueRelease> = {};
  if (body.kind === 'os' || body.kind === 'supervisor') fields.kind = body.kind;
  for (const key of ['deviceType', 'cpuArchitecture', 'version', 'variant'] as const) {
    const value = body[key];
    if (typeof value === 'string') fields[key] = value;
  }
  for (const key of ['phase', 'knownIssues', 'notes', 'updaterImage', 'baseVersion'] as const) {
    const value = textOrNull(body[key]);
    if (value !== undefined) fields[key] = value;
  }
  if (typeof body.invalidated === 'boolean') fields.invalidated = body.invalidated;
  return fields;
};
