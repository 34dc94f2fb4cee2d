import type { FlotillaClient } from '@flotilla/sdk/create-client';
import {
  defaultMetricPoints,
  isMetricHistory,
  type MetricHistory,
  metricHistoryPath,
} from '@flotilla/shared/device-metrics/metric-history';
import { deviceKeys } from '../../device/query-keys.js';

// Under ['devices'] so the device page's refresh after an action reads it again too.
export const metricHistoryKey = (uuid: string) => [...deviceKeys.all, 'metrics', uuid] as const;

// Devices report metrics at most once a minute (seed 001: at least every 5 minutes).
export const metricHistoryRefreshMs = 60_000;

// The last day (the server's default range, its retention), averaged into at most
// defaultMetricPoints points.
export const fetchMetricHistory = async (
  client: FlotillaClient,
  uuid: string,
): Promise<MetricHistory> => {
  const answer = await client.request<unknown>({
    path: `${metricHistoryPath(uuid)}?points=${defaultMetricPoints}`,
  });
  if (!isMetricHistory(answer)) throw new Error('The server answered with no metric history');
  return answer;
};
