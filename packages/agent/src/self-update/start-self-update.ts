import { ApiClient } from '../api-client.js';
import type { AgentConfig } from '../config.js';
import type { DeviceAgent } from '../device-agent.js';
import { errorText, type Logger } from '../logger.js';
import type { Scheduler } from '../scheduler.js';
import { SelfUpdater, startSelfUpdateCheck } from './self-updater.js';

export type StartSelfUpdateOptions = {
  config: AgentConfig;
  home: string;
  identity: { uuid: string; deviceApiKey: string };
  supervisorVersion: string;
  scheduler: Scheduler;
  logger: Logger;
  agent: Pick<DeviceAgent, 'systemLog'>;
  restart: (() => void) | undefined;
  // This package was just swapped in and is on trial (the launcher said so).
  onTrial: boolean;
  // A supervisor update failed: the device reports it (HostDevice.supervisorUpdateFailed).
  onFailure?: (message: string) => void;
};

export type SelfUpdate = {
  // The server accepted a state report: a package on trial says it took over.
  reportedIn(): void;
  stop(): void;
};

// Real mode's supervisor updates: says how the last one went, then looks up the supervisor
// release now and then. Without a way to restart (the programmatic API) it does not update.
export const startSelfUpdate = (options: StartSelfUpdateOptions): SelfUpdate | null => {
  const { config, home, identity, scheduler, logger, agent, restart } = options;
  if (restart === undefined) return null;
  let announceTakeover = options.onTrial;
  const updater = new SelfUpdater({
    home,
    apiEndpoint: config.apiEndpoint,
    runningVersion: options.supervisorVersion,
    clock: scheduler.clock,
    logger,
    log: (message) => agent.systemLog(message),
    restart,
    ...(options.onFailure ? { onFailure: options.onFailure } : {}),
  });
  void updater
    .announce()
    .catch((error: unknown) =>
      logger.warn(`could not read the self-update state in ${home}: ${errorText(error)}`),
    );
  const check = startSelfUpdateCheck({
    api: new ApiClient({ baseUrl: config.apiEndpoint }),
    scheduler,
    logger,
    uuid: identity.uuid,
    deviceApiKey: identity.deviceApiKey,
    intervalMs: config.host.supervisorCheckInterval,
    // Soon after the start, once the device has reported in.
    firstDelayMs: Math.min(15_000, config.host.supervisorCheckInterval),
    updater,
  });
  return {
    reportedIn: () => {
      if (!announceTakeover) return;
      announceTakeover = false;
      agent.systemLog(
        `Supervisor updated to ${options.supervisorVersion} (Flotilla agent package)`,
      );
    },
    stop: () => check.stop(),
  };
};
