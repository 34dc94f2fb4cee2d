import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { PineFilter } from '@flotilla/sdk/pine';
import { effectiveLocation } from '@flotilla/shared/devices/location';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { fleetListPolling } from '../../ui/polling.js';
import { locationKeys } from './query-keys.js';

export type MapDevice = {
  id: number;
  uuid: string;
  device_name: string;
  overall_status: string;
  latitude: number;
  longitude: number;
};

// Every device of the filter with the fields the map needs; those without a location are counted.
const fetchMapDevices = async (
  client: FlotillaClient,
  filter: PineFilter<'device'>,
): Promise<{ located: MapDevice[]; unlocated: number }> => {
  const rows = await client.pine.get({
    resource: 'device',
    options: {
      $select: [
        'id',
        'uuid',
        'device_name',
        'overall_status',
        'latitude',
        'longitude',
        'custom_latitude',
        'custom_longitude',
      ],
      $filter: filter,
    },
  });
  const located: MapDevice[] = [];
  for (const row of rows) {
    const place = effectiveLocation(row);
    if (place) located.push({ ...row, latitude: place.latitude, longitude: place.longitude });
  }
  return { located, unlocated: rows.length - located.length };
};

// The fleet's devices of the filter on the map, refreshed like the fleet lists.
export const useFleetMapDevices = (fleetId: number, filter: PineFilter<'device'>) => {
  const client = useClient();
  return useQuery({
    queryKey: locationKeys.fleetMap(fleetId, JSON.stringify(filter)),
    queryFn: () => fetchMapDevices(client, filter),
    ...fleetListPolling(),
  });
};

// The console configuration, for the map tiles; it does not change while the console is open.
export const useMapConfig = () => {
  const client = useClient();
  return useQuery({
    queryKey: locationKeys.config,
    queryFn: () => client.config(),
    staleTime: Infinity,
  });
};

// null clears the custom location: the device shows its geo-determined one again.
export type CustomLocation = { latitude: string | null; longitude: string | null };

// Sets or clears the device's custom location, then every device query refreshes.
export const useSaveLocation = (deviceId: number) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (location: CustomLocation) => {
      await client.pine.patch({
        resource: 'device',
        id: deviceId,
        body: { custom_latitude: location.latitude, custom_longitude: location.longitude },
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: locationKeys.devices }),
  });
};
