import {
  readAgentProfile,
  releaseBlocker,
} from '@flotilla/shared/device-protocol/agent-profile-rules';
import type { JsonObject } from '@flotilla/sdk/resources/field-types';
import type { DeviceTypeRef } from './device-rows.js';

// Why this device cannot run its fleet's release, from what its agent reported (no containers,
// a CPU its device type's releases do not run on), or null.
export const releaseBlockerOf = (device: {
  agent_profile: JsonObject | null;
  is_of__device_type: readonly DeviceTypeRef[];
}): string | null =>
  releaseBlocker(
    readAgentProfile(device.agent_profile),
    device.is_of__device_type[0]?.is_of__cpu_architecture[0]?.slug ?? null,
  );
