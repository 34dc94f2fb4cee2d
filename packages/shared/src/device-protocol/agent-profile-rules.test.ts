import { describe, expect, it } from 'vitest';
import { agentProfile } from './agent-profile.js';
import {
  type AgentProfile,
  honouredByAny,
  honoursConfig,
  readAgentProfile,
  releaseBlocker,
} from './agent-profile-rules.js';

const profile: AgentProfile = {
  manages_containers: true,
  architecture: 'aarch64',
  board: null,
  honoured_config: ['BALENA_SUPERVISOR_POLL_INTERVAL'],
};

describe('agent profile rules', () => {
  it('applies a setting the agent lists, under either namespace; every one without a profile', () => {
    expect(honoursConfig(profile, 'BALENA_SUPERVISOR_POLL_INTERVAL')).toBe(true);
    expect(honoursConfig(profile, 'RESIN_SUPERVISOR_POLL_INTERVAL')).toBe(true);
    expect(honoursConfig(profile, 'BALENA_HOST_CONFIG_gpu_mem')).toBe(false);
    expect(honoursConfig(null, 'BALENA_HOST_CONFIG_gpu_mem')).toBe(true);
  });

  it("marks a fleet's setting unused only when no device's agent applies it", () => {
    const other = { ...profile, honoured_config: ['BALENA_SUPERVISOR_PERSISTENT_LOGGING'] };
    expect(honouredByAny([profile, other], 'BALENA_HOST_CONFIG_gpu_mem')).toBe(false);
    expect(honouredByAny([profile, other], 'BALENA_SUPERVISOR_PERSISTENT_LOGGING')).toBe(true);
    // A device without a profile (balenaOS, a simulated device) applies every setting.
    expect(honouredByAny([profile, null], 'BALENA_HOST_CONFIG_gpu_mem')).toBe(true);
    expect(honouredByAny([], 'BALENA_HOST_CONFIG_gpu_mem')).toBe(true);
  });

  it('blocks the release without containers or on a CPU that cannot run it', () => {
    expect(releaseBlocker(null, 'aarch64')).toBeNull();
    expect(releaseBlocker(profile, 'aarch64')).toBeNull();
    // 64-bit ARM runs 32-bit ARM releases.
    expect(releaseBlocker(profile, 'armv7hf')).toBeNull();
    expect(releaseBlocker(profile, 'amd64')).toMatch(/CPU \(aarch64\) cannot run amd64/);
    expect(releaseBlocker({ ...profile, manages_containers: false }, 'aarch64')).toMatch(
      /does not run containers/,
    );
    // An architecture the agent could not name cannot be held against the type.
    expect(releaseBlocker({ ...profile, architecture: null }, 'amd64')).toBeNull();
  });

  it('reads only a well-formed profile, as the server validates it', () => {
    expect(readAgentProfile(profile)).toEqual(profile);
    expect(agentProfile.parse(profile)).toEqual(profile);
    for (const bad of [null, 'x', { ...profile, manages_containers: 'yes' }, { board: null }]) {
      expect(readAgentProfile(bad)).toBeNull();
      expect(agentProfile.safeParse(bad).success).toBe(false);
    }
  });
});
