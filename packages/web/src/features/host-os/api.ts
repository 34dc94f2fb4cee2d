import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type {
  CatalogueEditBody,
  CatalogueImportResult,
  CatalogueNewRelease,
  CatalogueRelease,
} from '@flotilla/shared/host-os/catalogue';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { hostOsKeys } from './query-keys.js';

// The host OS catalogue's admin routes (features/host-os on the server): platform administrators
// only; everyone else reads the catalogue through /v7.
const releasesPath = '/admin/v1/host-os/releases';

const listReleases = (client: FlotillaClient) =>
  client.request<CatalogueRelease[]>({ path: releasesPath });

const addRelease = (client: FlotillaClient, body: CatalogueNewRelease) =>
  client.request<CatalogueRelease>({ method: 'POST', path: releasesPath, body });

const editRelease = (client: FlotillaClient, id: number, body: CatalogueEditBody) =>
  client.request<CatalogueRelease>({ method: 'PATCH', path: `${releasesPath}/${id}`, body });

const removeRelease = (client: FlotillaClient, id: number) =>
  client.request<unknown>({ method: 'DELETE', path: `${releasesPath}/${id}` });

// The file goes as it was read: the server names the entry that is wrong, if any.
const importCatalogue = (client: FlotillaClient, file: unknown) =>
  client.request<CatalogueImportResult>({
    method: 'POST',
    path: '/admin/v1/host-os/catalogue',
    body: file,
  });

// The installation's device types with their CPU architecture, for the pickers.
const fetchDeviceTypes = (client: FlotillaClient) =>
  client.pine.get({
    resource: 'device_type',
    options: {
      $select: ['id', 'slug', 'name'],
      $expand: { is_of__cpu_architecture: { $select: ['id', 'slug'] } },
      $orderby: { name: 'asc' },
    },
  });

export type CatalogueDeviceType = Awaited<ReturnType<typeof fetchDeviceTypes>>[number];

export const useCatalogueReleases = () => {
  const client = useClient();
  return useQuery({ queryKey: hostOsKeys.releases, queryFn: () => listReleases(client) });
};

export const useCatalogueDeviceTypes = () => {
  const client = useClient();
  return useQuery({
    queryKey: hostOsKeys.deviceTypes,
    queryFn: () => fetchDeviceTypes(client),
    staleTime: 60_000,
  });
};

// Every write reads the catalogue again, whether it worked or not (an import may have been
// refused after another administrator's change).
const useCatalogueWrite = <Input, Output>(
  write: (client: FlotillaClient, input: Input) => Promise<Output>,
  onDone: (output: Output, input: Input) => void,
) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: (input: Input) => write(client, input),
    onSuccess: onDone,
    onSettled: () => queryClient.invalidateQueries({ queryKey: hostOsKeys.all }),
  });
};

export const useAddRelease = (onAdded: (release: CatalogueRelease) => void) =>
  useCatalogueWrite(addRelease, onAdded);

export const useEditRelease = (onEdited: (release: CatalogueRelease) => void) =>
  useCatalogueWrite(
    (client, { id, body }: { id: number; body: CatalogueEditBody }) =>
      editRelease(client, id, body),
    onEdited,
  );

export const useRemoveRelease = (onRemoved: () => void) =>
  useCatalogueWrite((client, id: number) => removeRelease(client, id), onRemoved);

export const useImportCatalogue = (onImported: (result: CatalogueImportResult) => void) =>
  useCatalogueWrite(importCatalogue, onImported);
