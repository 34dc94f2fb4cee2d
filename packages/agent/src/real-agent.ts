import {
  agentProfileOf,
  detectArchitecture,
  detectBoard,
  warnOnDeviceTypeMismatch,
} from './runtime/agent-profile.js';
import { ApiClient } from './api-client.js';
import { systemClock } from './clock.js';
import { type AgentConfig, loadAgentConfig, updateConfigFile } from './config.js';
import { DeviceAgent } from './device-agent.js';
import { errorText, type Logger } from './logger.js';
import {
  type DeviceIdentity,
  type IdentityStore,
  provision,
  ProvisioningError,
} from './provisioning.js';
import { type CommandRunner, execFileRunner } from './runtime/command-runner.js';
import { balenaArch, findContainerEngine } from './engine/find-engine.js';
import { ContainerDevice } from './runtime/container-device.js';
import { HostDevice } from './runtime/host-device.js';
import { HostOsUpdater } from './runtime/host-os-updater.js';
import { dockerUpdaterEngine } from './engine/docker-updater.js';
import { agentHomeOf } from './self-update/launch-installed.js';
import { startSelfUpdate } from './self-update/start-self-update.js';
import { hostNetwork } from './runtime/host-metrics.js';
import { Scheduler } from './scheduler.js';
import { supervisorCompatVersion } from './version.js';

export type RealAgent = { agent: DeviceAgent; uuid: string; stop(): Promise<void> };

export type RealAgentOptions = {
  configPath: string;
  logger: Logger;
  // Injected by tests; defaults to running argv with execFile.
  runner?: CommandRunner;
  // Aborts a registration that is still retrying (Ctrl-C while the server is unreachable).
  signal?: AbortSignal;
  // How soon a container device looks again at a held update lock or an engine away (30 s), and
  // reads its containers again (5 s); tests shorten them.
  containerTiming?: { retryMs?: number; refreshMs?: number };
  // The supervisor version this agent reports (a self-updated package: its release's version).
  supervisorVersion?: string;
  // Stops the process for its service manager to start it again (after a self-update). Without
  // it the agent does not update itself.
  restart?(): void;
  // The server accepted a state report (the launcher keeps a new package from then on).
  onReportedIn?(): void;
  // The launcher runs this package on trial: it was just swapped in.
  onTrial?: boolean;
};

// The identity lives in config.json as on balena: uuid, deviceApiKey, deviceId, registered_at.
const configFileStore = (path: string, config: AgentConfig): IdentityStore => ({
  load: async () => ({
    ...(config.uuid ? { uuid: config.uuid } : {}),
    ...(config.deviceApiKey ? { deviceApiKey: config.deviceApiKey } : {}),
    deviceId: config.deviceId,
    registered: config.registeredAt !== null && config.deviceApiKey !== null,
  }),
  save: async (identity: DeviceIdentity) => {
    await updateConfigFile(path, {
      uuid: identity.uuid,
      deviceApiKey: identity.deviceApiKey,
      ...(identity.deviceId === null ? {} : { deviceId: identity.deviceId }),
      ...(identity.registered ? { registered_at: Date.now() } : {}),
    });
  },
});

// Real mode: this Linux machine is the device. Registers if needed, then runs until stopped.
export const startRealAgent = async (options: RealAgentOptions): Promise<RealAgent> => {
  const { configPath, logger } = options;
  const supervisorVersion = options.supervisorVersion ?? supervisorCompatVersion;
  const config = await loadAgentConfig(configPath);
  const scheduler = new Scheduler(systemClock, (error) =>
    logger.error(`task failed: ${errorText(error)}`),
  );
  const api = new ApiClient({ baseUrl: config.apiEndpoint });
  const store = configFileStore(configPath, config);
  const known = await store.load();
  if (!known.registered && config.provisioningApiKey === null) {
    throw new ProvisioningError(
      'the device is not registered yet and config.json has no apiKey (provisioning key)',
    );
  }
  const found = await findContainerEngine(config.host.containerEngine, process.env, logger);
  logger.info(
    found === null
      ? 'no container engine: the fleet release is not run (host mode)'
      : `running the fleet release on the container engine at ${found.socket}`,
  );
  const profile = agentProfileOf({
    managesContainers: found !== null,
    architecture: detectArchitecture(),
    board: await detectBoard(),
  });
  logger.info(
    `CPU ${profile.architecture ?? process.arch}${profile.board ? `, board ${profile.board}` : ''}`,
  );
  const host = new HostDevice({
    settings: config.host,
    profile,
    runner: options.runner ?? execFileRunner(),
    scheduler,
    logger,
    supervisorVersion,
    ...(found === null
      ? {}
      : { startLine: `Flotilla agent starting (containers on ${found.socket})` }),
  });
  await host.prepare();
  const identity = await provision(
    api,
    store,
    {
      applicationId: config.applicationId,
      deviceType: config.deviceType,
      provisioningKey: config.provisioningApiKey ?? '',
      userId: config.userId,
      supervisorVersion,
      osVersion: host.info().os_version,
      osVariant: config.host.osVariant ?? undefined,
      macAddress: hostNetwork().macAddress || undefined,
    },
    {
      signal: options.signal,
      onRetry: (error, delay) =>
        logger.warn(`registration: ${error.message}; retrying in ${Math.round(delay / 1000)} s`),
    },
  );
  void warnOnDeviceTypeMismatch(api, config.deviceType, profile.architecture, logger);
  host.osUpdater = new HostOsUpdater({
    enabled: config.host.hostOsUpdates,
    engine: found === null ? null : dockerUpdaterEngine(found.socket),
    device: { uuid: identity.uuid, deviceType: config.deviceType },
    osVersion: () => host.info().os_version,
  });
  logger.info(
    `device ${identity.uuid} registered${identity.deviceId === null ? '' : ` (id ${identity.deviceId})`}`,
  );
  const runtime =
    found === null
      ? host
      : new ContainerDevice({
          host,
          engine: found.engine,
          device: {
            uuid: identity.uuid,
            deviceType: config.deviceType,
            arch: balenaArch(process.arch),
            osVersion: host.info().os_version,
            supervisorVersion,
            engineSocket: found.socket,
            api: { url: config.apiEndpoint, key: identity.deviceApiKey },
          },
          deviceApiKey: identity.deviceApiKey,
          scheduler,
          hostLockPaths: config.host.updateLockPaths,
          lockDir: config.host.containerLockDir,
          ...options.containerTiming,
        });
  const agent = new DeviceAgent({
    baseUrl: config.apiEndpoint,
    uuid: identity.uuid,
    deviceApiKey: identity.deviceApiKey,
    runtime,
    scheduler,
    random: Math.random,
    logger,
    pollIntervalMs: config.appUpdatePollInterval,
    cloudlink: { hostOsUpdates: config.host.hostOsUpdates },
    onPhase: (phase) => logger.info(`agent ${phase}`),
    onCloudlink: (connected) =>
      logger.info(`cloudlink ${connected ? 'connected' : 'disconnected'}`),
    onReported: () => {
      options.onReportedIn?.();
      selfUpdate?.reportedIn();
    },
  });
  const selfUpdate = startSelfUpdate({
    config,
    home: agentHomeOf(configPath, config.host.agentHome),
    identity,
    supervisorVersion,
    scheduler,
    logger,
    agent,
    restart: options.restart,
    onTrial: options.onTrial ?? false,
    onFailure: (message) => host.supervisorUpdateFailed(message),
  });
  agent.start();
  return {
    agent,
    uuid: identity.uuid,
    stop: async () => {
      selfUpdate?.stop();
      await agent.stop();
      scheduler.stop();
    },
  };
};
