import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { OsImage } from '@flotilla/shared/host-os/os-image';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { hostOsKeys } from './query-keys.js';

// The provisioning images of the catalogue's OS releases (platform administrators only).
const imagePath = (release: number) => `/admin/v1/host-os/releases/${release}/image`;

// An image is large: the upload may take long, the server fetching a link too.
const transferTimeoutMs = 60 * 60 * 1000;

export type ImageWrite =
  | { kind: 'upload'; release: number; file: File }
  | { kind: 'link'; release: number; url: string }
  | { kind: 'remove'; release: number };

const writeImage = (client: FlotillaClient, write: ImageWrite) => {
  switch (write.kind) {
    case 'upload':
      return client.request<OsImage>({
        method: 'PUT',
        path: imagePath(write.release),
        query: { filename: write.file.name },
        // The browser streams the file from disk; it is never read into the page.
        upload: { data: write.file, contentType: 'application/octet-stream' },
        timeoutMs: transferTimeoutMs,
      });
    case 'link':
      return client.request<OsImage>({
        method: 'POST',
        path: `${imagePath(write.release)}-link`,
        body: { url: write.url },
        timeoutMs: transferTimeoutMs,
      });
    case 'remove':
      return client.request<unknown>({ method: 'DELETE', path: imagePath(write.release) });
  }
};

export const useOsImages = () => {
  const client = useClient();
  return useQuery({
    queryKey: hostOsKeys.images,
    queryFn: () => client.request<OsImage[]>({ path: '/admin/v1/host-os/images' }),
  });
};

export const useWriteOsImage = (onDone: (write: ImageWrite) => void) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: (write: ImageWrite) => writeImage(client, write),
    onSuccess: (_image, write) => onDone(write),
    onSettled: () => queryClient.invalidateQueries({ queryKey: hostOsKeys.all }),
  });
};
