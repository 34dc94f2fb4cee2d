import type { ApiClient } from './api-client.js';
import { seededRandom } from './clock.js';
import { type AgentPhase, DeviceAgent, type DeviceAgentOptions } from './device-agent.js';
import { errorText, type Logger } from './logger.js';
import { type DeviceIdentity, provision, ProvisioningError } from './provisioning.js';
import { SimulatedDevice, type SimulatedDeviceTiming } from './runtime/simulated-device.js';
import type { Scheduler } from './scheduler.js';
import type { ResolvedFleet } from './simulator-fleet.js';
import { type Location, pickLocation, simulatedProfile } from './simulator-profiles.js';
import type { SimulatorStore, StoredDevice } from './simulator-store.js';
import { startSupervisorCheck } from './simulator-supervisor-check.js';
import type { UpdateFault } from './engine/update-faults.js';

export type HandlePhase = 'pending' | 'provisioning' | 'failed' | AgentPhase;

type AgentTuning = Omit<
  DeviceAgentOptions,
  'baseUrl' | 'uuid' | 'deviceApiKey' | 'runtime' | 'scheduler' | 'random' | 'logger' | 'onPhase'
>;

export type SimulatedDeviceContext = {
  api: ApiClient;
  fleet: ResolvedFleet;
  provisioningKey: string;
  store: SimulatorStore;
  scheduler: Scheduler;
  logger: Logger;
  timing: SimulatedDeviceTiming;
  agent: AgentTuning;
  // Host OS updates: the share that fails and rolls back, and how often a device looks up the
  // supervisor release it should run.
  hostUpdates: { osUpdateFailureChance: number; supervisorCheckMs: number };
  signal: AbortSignal;
};

// One virtual device of a simulator run, as tests and the demo see it.
export class SimulatedDeviceHandle {
  readonly key: string;
  readonly fleet: string;
  readonly location: Location;
  readonly device: SimulatedDevice;
  readonly #context: SimulatedDeviceContext;
  readonly #random: () => number;
  #stored: StoredDevice;
  #identity: DeviceIdentity | null = null;
  #agent: DeviceAgent | null = null;
  #phase: HandlePhase = 'pending';
  #error: string | null = null;
  #listeners = new Set<() => void>();
  #supervisorCheck: { stop(): void } | null = null;

  constructor(
    key: string,
    stored: StoredDevice,
    context: SimulatedDeviceContext,
    // What the device starts with: an update lock held, a full disk.
    traits: { updateLocked: boolean; diskFull: boolean; updateFault?: UpdateFault | null },
  ) {
    this.key = key;
    this.fleet = context.fleet.slug;
    this.#stored = stored;
    this.#context = context;
    // Everything not stored derives from the seed, so a device looks the same on every run.
    const random = seededRandom(stored.seed);
    const seeded = simulatedProfile(
      random,
      stored.name,
      stored.deviceType,
      context.fleet.architecture,
    );
    // Versions it updated to in an earlier run win over the seed's.
    const profile = {
      ...seeded,
      osVersion: stored.osVersion ?? seeded.osVersion,
      supervisorVersion: stored.supervisorVersion ?? seeded.supervisorVersion,
    };
    this.location = pickLocation(random);
    this.device = new SimulatedDevice({
      profile,
      scheduler: context.scheduler,
      random,
      timing: context.timing,
      updateLocked: traits.updateLocked,
      diskFull: traits.diskFull,
      updateFault: traits.updateFault ?? null,
      // Off the air for good: the agent stops polling and reporting, as a bricked device would.
      onUpdateFault: (fault) => {
        if (fault === 'offline') void this.#agent?.stop();
      },
      osUpdateFailureChance: context.hostUpdates.osUpdateFailureChance,
      onVersions: (versions) =>
        context.store.set(key, { ...(context.store.get(key) ?? this.#stored), ...versions }),
    });
    this.#random = random;
  }

  get name(): string {
    return this.#stored.name;
  }

  get deviceType(): string {
    return this.#stored.deviceType;
  }

  get uuid(): string | null {
    return this.#identity?.uuid ?? null;
  }

  get deviceId(): number | null {
    return this.#identity?.deviceId ?? null;
  }

  get deviceApiKey(): string | null {
    return this.#identity?.deviceApiKey ?? null;
  }

  get phase(): HandlePhase {
    return this.#phase;
  }

  get error(): string | null {
    return this.#error;
  }

  get agent(): DeviceAgent | null {
    return this.#agent;
  }

  setUpdateLock(locked: boolean): void {
    this.device.updateLocked = locked;
  }

  // Makes the device's next releases misbehave (or behave again): see engine/update-faults.ts.
  setUpdateFault(fault: UpdateFault | null): void {
    this.device.updateFault = fault;
  }

  // Fills the device's disk (or frees it): see SimulatedDevice.diskFull.
  setDiskFull(full: boolean): void {
    this.device.diskFull = full;
  }

  // Resolves once the device is in `phase` (immediately if it already is).
  waitFor(phase: HandlePhase, timeoutMs = 30_000): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.#phase === phase) {
        resolve();
        return;
      }
      const timer = setTimeout(() => {
        this.#listeners.delete(check);
        reject(
          new Error(
            `${this.name} did not reach ${phase} within ${timeoutMs} ms (is ${this.#phase})`,
          ),
        );
      }, timeoutMs);
      const check = (): void => {
        if (this.#phase !== phase) return;
        clearTimeout(timer);
        this.#listeners.delete(check);
        resolve();
      };
      this.#listeners.add(check);
    });
  }

  async start(): Promise<void> {
    const context = this.#context;
    const logger = context.logger.child(this.name);
    this.#setPhase('provisioning');
    try {
      this.#identity = await this.#provision();
      await this.#describe(logger);
    } catch (error) {
      if (context.signal.aborted) return;
      this.#error = errorText(error);
      logger.error(`provisioning failed: ${this.#error}`);
      this.#setPhase('failed');
      return;
    }
    if (context.signal.aborted) return;
    const identity = this.#identity;
    this.device.uuid = identity.uuid;
    const agent = new DeviceAgent({
      ...context.agent,
      baseUrl: context.api.baseUrl,
      uuid: identity.uuid,
      deviceApiKey: identity.deviceApiKey,
      runtime: this.device,
      scheduler: context.scheduler,
      random: Math.random,
      logger,
      onPhase: (phase) => {
        if (phase === 'rebooting' || phase === 'off')
          logger.info(`${phase === 'off' ? 'shut down' : 'rebooting'}`);
        this.#setPhase(phase);
      },
    });
    this.#agent = agent;
    agent.start();
    const { supervisorCheckMs } = context.hostUpdates;
    this.#supervisorCheck = startSupervisorCheck({
      api: context.api,
      scheduler: context.scheduler,
      logger,
      uuid: identity.uuid,
      deviceApiKey: identity.deviceApiKey,
      intervalMs: supervisorCheckMs,
      firstDelayMs: this.#random() * supervisorCheckMs,
      apply: (version) => {
        if (agent.phase === 'online') this.device.applySupervisorRelease(version);
      },
    });
  }

  async stop(): Promise<void> {
    this.#supervisorCheck?.stop();
    await this.#agent?.stop();
  }

  async #provision(): Promise<DeviceIdentity> {
    const { api, fleet, provisioningKey, store, signal } = this.#context;
    const profile = this.device.profile;
    const register = (deviceType: string): Promise<DeviceIdentity> =>
      provision(
        api,
        store.identityStore(this.key),
        {
          applicationId: fleet.id,
          deviceType,
          provisioningKey,
          supervisorVersion: profile.supervisorVersion,
          osVersion: profile.osVersion,
          osVariant: profile.osVariant,
          macAddress: profile.macAddress,
        },
        { signal },
      );
    try {
      return await register(this.#stored.deviceType);
    } catch (error) {
      // A catalogue type the server does not know: fall back to the fleet's own type.
      if (!(error instanceof ProvisioningError) || error.status !== 400) throw error;
      if (this.#stored.deviceType === fleet.deviceType) throw error;
      this.#stored = { ...this.#stored, deviceType: fleet.deviceType };
      store.set(this.key, {
        ...(store.get(this.key) ?? this.#stored),
        deviceType: fleet.deviceType,
      });
      return register(fleet.deviceType);
    }
  }

  // Registration names a device after its uuid; the simulator gives it a two-word name and a
  // custom location once (geo-location of 127.0.0.1 would put every device in one spot).
  async #describe(logger: Logger): Promise<void> {
    const { api, store } = this.#context;
    const identity = this.#identity;
    const stored = store.get(this.key);
    if (!identity || stored?.described) return;
    const target =
      identity.deviceId === null ? `(uuid='${identity.uuid}')` : `(${identity.deviceId})`;
    const patch = async (body: Record<string, unknown>): Promise<boolean> => {
      try {
        await api.request(
          { method: 'PATCH', path: `/v7/device${target}`, body, token: identity.deviceApiKey },
          [200, 204],
        );
        return true;
      } catch (error) {
        logger.debug(`could not set ${Object.keys(body).join(', ')}: ${errorText(error)}`);
        return false;
      }
    };
    await patch({ device_name: this.name });
    // The geo-determined position (a device with GPS); the custom pair is the owners' choice.
    await patch({
      latitude: String(this.location.latitude),
      longitude: String(this.location.longitude),
    });
    store.set(this.key, { ...(store.get(this.key) ?? this.#stored), described: true });
  }

  #setPhase(phase: HandlePhase): void {
    this.#phase = phase;
    for (const listener of [...this.#listeners]) listener();
  }
}
