import type { ApiClient } from './api-client.js';
import { errorText, type Logger } from './logger.js';
import type { Scheduler, TaskHandle } from './scheduler.js';

// balenaOS looks up now and then which supervisor release its device should run
// (should_be_managed_by__release) and swaps the supervisor when it differs; a simulated device
// does the same, with its own key, through /v7.

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// The version in `{ d: [{ should_be_managed_by__release: [{ raw_version }] }] }`, or null.
export const supervisorTargetOf = (body: unknown): string | null => {
  const device = isRecord(body) && Array.isArray(body.d) ? body.d[0] : undefined;
  const expanded = isRecord(device) ? device.should_be_managed_by__release : undefined;
  const release = Array.isArray(expanded) ? expanded[0] : undefined;
  return isRecord(release) && typeof release.raw_version === 'string' ? release.raw_version : null;
};

export type SupervisorCheckOptions = {
  api: Pick<ApiClient, 'request'>;
  scheduler: Scheduler;
  logger: Logger;
  uuid: string;
  deviceApiKey: string;
  intervalMs: number;
  // The first check falls this long after the start (spreads many devices' checks).
  firstDelayMs: number;
  apply(version: string | null): void;
};

export const startSupervisorCheck = (options: SupervisorCheckOptions): { stop(): void } => {
  let task: TaskHandle | null = null;
  let stopped = false;
  const path =
    `/v7/device?$select=id&$filter=uuid eq '${options.uuid}'` +
    '&$expand=should_be_managed_by__release($select=raw_version)';
  const check = async (): Promise<void> => {
    try {
      const response = await options.api.request({
        method: 'GET',
        path,
        token: options.deviceApiKey,
      });
      if (!stopped) options.apply(supervisorTargetOf(response.body));
    } catch (error) {
      options.logger.debug(`supervisor release check failed: ${errorText(error)}`);
    }
  };
  const arm = (delayMs: number): void => {
    task = options.scheduler.after(delayMs, () => {
      void check().finally(() => {
        if (!stopped) arm(options.intervalMs);
      });
    });
  };
  arm(options.firstDelayMs);
  return {
    stop() {
      stopped = true;
      task?.cancel();
    },
  };
};
