import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { esrBaseVersionTag } from '@flotilla/shared/host-os/catalogue';
import type { OsReleaseOption } from '@flotilla/shared/host-os/os-update-eligibility';
import type { SupervisorReleaseOption } from '@flotilla/shared/host-os/supervisor-update';
import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { runOrQueue } from './api-queued-actions.js';
import type { HostUpdateRequest } from './host-update-actions.js';
import { devicesKeys } from './query-keys.js';

// The host OS catalogue as balena-sdk reads it through /v7: the public host applications of the
// device types (`is_host`), and the `balena_os/<architecture>-supervisor` applications. The
// server judges every write with the same rules; these reads only fill the pickers.

// The catalogue does not change while a dialog is open; a minute keeps reopening cheap.
const catalogueStaleMs = 60_000;

const releaseFields = [
  'id',
  'raw_version',
  'variant',
  'phase',
  'status',
  'is_final',
  'is_invalidated',
  'known_issue_list',
] as const;

export type HostOsRelease = OsReleaseOption & {
  id: number;
  deviceType: string;
  phase: string | null;
  knownIssues: string | null;
};

export type SupervisorRelease = SupervisorReleaseOption & { id: number };

type ReleaseRow = {
  id: number;
  raw_version: string;
  variant: string;
  status: string;
  is_final: boolean;
  is_invalidated: boolean;
};

const optionOf = (release: ReleaseRow) => ({
  id: release.id,
  rawVersion: release.raw_version,
  status: release.status,
  isFinal: release.is_final,
  isInvalidated: release.is_invalidated,
});

const unique = (values: readonly string[]): string[] =>
  [...new Set(values)].filter((value) => value !== '').sort();

export const fetchOsReleases = async (
  client: FlotillaClient,
  deviceTypes: readonly string[],
): Promise<HostOsRelease[]> => {
  const apps = await client.pine.get({
    resource: 'application',
    options: {
      $select: ['id'],
      $filter: {
        is_host: true,
        is_for__device_type: {
          $any: { $alias: 'dt', $expr: { dt: { slug: { $in: [...deviceTypes] } } } },
        },
      },
      $expand: {
        is_for__device_type: { $select: ['slug'] },
        owns__release: {
          $select: [...releaseFields],
          // An ESR release's regular base version, under balena's tag name.
          $expand: {
            release_tag: {
              $select: ['tag_key', 'value'],
              $filter: { tag_key: esrBaseVersionTag },
            },
          },
        },
      },
    },
  });
  return apps.flatMap((app) =>
    app.owns__release.map((release) => ({
      ...optionOf(release),
      variant: release.variant,
      baseVersion:
        release.release_tag.find((tag) => tag.tag_key === esrBaseVersionTag)?.value ?? null,
      deviceType: app.is_for__device_type[0]?.slug ?? '',
      phase: release.phase,
      knownIssues: release.known_issue_list,
    })),
  );
};

export type SupervisorCatalogue = {
  // The CPU architecture of each device type (missing when unknown).
  architectures: Record<string, string>;
  releases: SupervisorRelease[];
};

const supervisorAppPattern = /^balena_os\/(.+)-supervisor$/;

export const fetchSupervisorCatalogue = async (
  client: FlotillaClient,
  deviceTypes: readonly string[],
): Promise<SupervisorCatalogue> => {
  const types = await client.pine.get({
    resource: 'device_type',
    options: {
      $select: ['slug'],
      $filter: { slug: { $in: [...deviceTypes] } },
      $expand: { is_of__cpu_architecture: { $select: ['slug'] } },
    },
  });
  const architectures: Record<string, string> = {};
  for (const type of types) {
    const architecture = type.is_of__cpu_architecture[0]?.slug;
    if (architecture !== undefined) architectures[type.slug] = architecture;
  }
  const wanted = unique(Object.values(architectures));
  if (wanted.length === 0) return { architectures, releases: [] };
  const apps = await client.pine.get({
    resource: 'application',
    options: {
      $select: ['id', 'slug'],
      $filter: {
        is_host: false,
        slug: { $in: wanted.map((architecture) => `balena_os/${architecture}-supervisor`) },
      },
      $expand: { owns__release: { $select: [...releaseFields] } },
    },
  });
  const releases = apps.flatMap((app) => {
    const cpuArchitecture = supervisorAppPattern.exec(app.slug)?.[1] ?? '';
    return app.owns__release.map((release) => ({ ...optionOf(release), cpuArchitecture }));
  });
  return { architectures, releases };
};

// The OS releases of these device types' host applications.
export const useOsReleases = (deviceTypes: readonly string[], enabled = true) => {
  const client = useClient();
  const types = unique(deviceTypes);
  return useQuery({
    queryKey: devicesKeys.osReleases(types),
    queryFn: () => fetchOsReleases(client, types),
    staleTime: catalogueStaleMs,
    enabled: enabled && types.length > 0,
  });
};

// The supervisor releases for these device types' CPU architectures.
export const useSupervisorCatalogue = (deviceTypes: readonly string[]) => {
  const client = useClient();
  const types = unique(deviceTypes);
  return useQuery({
    queryKey: devicesKeys.supervisorReleases(types),
    queryFn: () => fetchSupervisorCatalogue(client, types),
    staleTime: catalogueStaleMs,
    enabled: types.length > 0,
  });
};

// One catalogue release with its notes, for the changelog dialog (read only when it opens).
export const useReleaseNotes = (releaseId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: devicesKeys.releaseNotes(releaseId),
    queryFn: async () => {
      const [release] = await client.pine.get({
        resource: 'release',
        options: {
          $select: ['id', 'raw_version', 'note', 'known_issue_list'],
          $filter: { id: releaseId },
        },
      });
      if (release === undefined)
        throw new Error('Unable to load the changelog for the device type');
      return release;
    },
    staleTime: catalogueStaleMs,
  });
};

// One device's write; the server refuses a release the device cannot take, with the reason. An
// offline device whose update the user queued goes through the queueing route, which sets the
// release and puts the previous one back if the update expires or is cancelled first.
export const runHostUpdate = async (
  client: FlotillaClient,
  request: HostUpdateRequest,
  deviceId: number,
): Promise<'done' | 'queued'> => {
  const { input } = request;
  const release = input.releases[deviceId];
  if (release === undefined) throw new Error(`No release of ${input.version} for this device`);
  if (input.queue?.deviceIds.includes(deviceId)) {
    const params =
      request.id === 'os-update'
        ? { targetVersion: input.variant ? `${input.version}.${input.variant}` : input.version }
        : { releaseId: release };
    return runOrQueue(client, request.id, deviceId, params, input.queue.hours);
  }
  const field =
    request.id === 'os-update' ? 'should_be_operated_by__release' : 'should_be_managed_by__release';
  await client.pine.patch({ resource: 'device', id: deviceId, body: { [field]: release } });
  return 'done';
};
