import { useQuery } from '@tanstack/react-query';
import { useClient } from '../api/client.js';
import { polling } from '../ui/polling.js';
import { queryRoots } from '../api/query-roots.js';

// The sweep evaluates the rules every minute; reading more often shows nothing new.
const refreshMs = 60_000;

// On the floor rather than in features/alerts: the device page (features/devices) reads it, and
// imports between features are capped. Under the alerts root, so alert writes refresh it.
export const deviceAlertKey = (deviceId: number) =>
  [...queryRoots.alerts, 'device', deviceId] as const;

// A device's firing alerts, newest first, with the rule that raised each (its organization, for
// the link to the rules).
export const useDeviceActiveAlerts = (deviceId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: deviceAlertKey(deviceId),
    ...polling(refreshMs),
    queryFn: () =>
      client.pine.get({
        resource: 'flotilla_alert',
        options: {
          $select: ['id', 'started_at', 'detail'],
          $filter: { device: deviceId, status: 'firing' },
          $expand: {
            is_raised_by__flotilla_alert_rule: {
              $select: ['id', 'name', 'belongs_to__organization'],
            },
          },
          $orderby: { started_at: 'desc' },
        },
      }),
  });
};

export type DeviceAlertRow = NonNullable<ReturnType<typeof useDeviceActiveAlerts>['data']>[number];
