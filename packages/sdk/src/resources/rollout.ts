import type {
  RolloutDeviceState,
  RolloutStatus,
  WaveStatus,
} from '@flotilla/shared/rollouts/rollout-types';
import type { Application } from './application.js';
import type { Device } from './device.js';
import type { JsonObject, ToOne } from './field-types.js';
import type { Release } from './release.js';
import type { User } from './user.js';

// Flotilla's staged rollouts on /v7, read only: they change through the rollout's decisions
// (/rollouts/v1) and the scheduler.
export type FlotillaRollout = {
  id: number;
  application: ToOne<Application>;
  from_release: ToOne<Release>;
  target_release: ToOne<Release>;
  status: RolloutStatus;
  gates: JsonObject;
  current_wave: number;
  halt_reason: string | null;
  rolled_back: boolean;
  started_by: ToOne<User> | null;
  created_at: string;
  finished_at: string | null;
};

export type FlotillaRolloutWave = {
  id: number;
  rollout: ToOne<FlotillaRollout>;
  position: number;
  spec: JsonObject;
  status: WaveStatus;
  started_at: string | null;
  finished_at: string | null;
  skip_reason: string | null;
};

export type FlotillaRolloutDevice = {
  id: number;
  rollout: ToOne<FlotillaRollout>;
  device: ToOne<Device>;
  wave: number;
  state: RolloutDeviceState;
  reason: string | null;
  healthy_since: string | null;
  problem_since: string | null;
  updated_at: string;
};

export type FlotillaRolloutEvent = {
  id: number;
  rollout: ToOne<FlotillaRollout>;
  at: string;
  kind: string;
  message: string;
  by_user: ToOne<User> | null;
};
