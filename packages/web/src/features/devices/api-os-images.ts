import type { OfferedOsImage, OsImageDownload } from '@flotilla/shared/host-os/os-image';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { devicesKeys } from './query-keys.js';

// The provisioning images of the host OS catalogue a device type has (features/host-os on the
// server): Add device offers them with the fleet's config.json written in.
export const useOfferedOsImages = (deviceType: string | undefined) => {
  const client = useClient();
  return useQuery({
    queryKey: devicesKeys.osImages(deviceType ?? ''),
    enabled: deviceType !== undefined,
    staleTime: 60_000,
    queryFn: () =>
      client.request<OfferedOsImage[]>({ path: '/v1/os-images', query: { deviceType } }),
  });
};

export type OsImageRequest = {
  appId: number;
  release: number;
  deviceType: string;
  appUpdatePollInterval: number;
  provisioningKeyExpiryDate?: string;
};

// Asks for a one-time link to the configured image, then hands it to the browser's own download
// (the image is never read into the page: it streams from the server to the disk).
export const useDownloadOsImage = () => {
  const client = useClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: (body: OsImageRequest) =>
      client.request<OsImageDownload>({ method: 'POST', path: '/download-os-image', body }),
    onSuccess: (download) => {
      const anchor = document.createElement('a');
      anchor.href = new URL(download.url, client.apiUrl || window.location.origin).toString();
      anchor.download = download.filename;
      anchor.click();
    },
  });
};
