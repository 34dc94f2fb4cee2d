import type { FlotillaClient } from '@flotilla/sdk/create-client';
import {
  defaultMetricPoints,
  isMetricHistory,
  type MetricHistory,
  metricHistoryPath,
} from '@flotilla/shared/device-metrics/metric-history';
import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { polling } from '../../ui/polling.js';
import { deviceMetricsKeys } from './query-keys.js';

// Devices report metrics at most once a minute (and at least every 5 minutes).
export const metricHistoryRefreshMs = 60_000;

// The last day (the server's default range, its retention), averaged into at most
// defaultMetricPoints points.
const fetchMetricHistory = async (client: FlotillaClient, uuid: string): Promise<MetricHistory> => {
  const answer = await client.request<unknown>({
    path: `${metricHistoryPath(uuid)}?points=${defaultMetricPoints}`,
  });
  if (!isMetricHistory(answer)) throw new Error('The server answered with no metric history');
  return answer;
};

// The device's metric history, read again every minute.
export const useMetricHistory = (uuid: string) => {
  const client = useClient();
  return useQuery({
    queryKey: deviceMetricsKeys.history(uuid),
    queryFn: () => fetchMetricHistory(client, uuid),
    ...polling(metricHistoryRefreshMs),
  });
};
