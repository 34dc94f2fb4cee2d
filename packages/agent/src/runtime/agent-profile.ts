import { readFile } from 'node:fs/promises';
import {
  type AgentProfile,
  flotillaAgentConfig,
} from '@flotilla/shared/device-protocol/agent-profile-rules';
import { canRunArchitecture } from '@flotilla/shared/device-types/cpu-architectures';
import type { ApiClient } from '../api-client.js';
import { balenaArch } from '../engine/find-engine.js';
import type { Logger } from '../logger.js';

// The CPU architecture this agent runs on, as balena names it; null when balena has no name for
// it (a device type could not be checked against it).
export const detectArchitecture = (nodeArch: string = process.arch): string | null => {
  const named = balenaArch(nodeArch);
  return named === nodeArch && !['aarch64', 'amd64', 'armv7hf', 'i386'].includes(named)
    ? null
    : named;
};

// The board's model as its firmware names it ("Raspberry Pi 4 Model B Rev 1.4"), where the
// kernel exposes a device tree; null elsewhere (most PCs).
export const detectBoard = async (path = '/proc/device-tree/model'): Promise<string | null> => {
  try {
    const model = (await readFile(path, 'utf8')).replaceAll('\0', '').trim();
    return model === '' ? null : model.slice(0, 255);
  } catch {
    return null;
  }
};

// What the agent reports about itself: it runs the release only with a container engine, and
// applies its own few configuration variables.
export const agentProfileOf = (options: {
  managesContainers: boolean;
  architecture: string | null;
  board: string | null;
}): AgentProfile => ({
  manages_containers: options.managesContainers,
  architecture: options.architecture,
  board: options.board,
  honoured_config: [...flotillaAgentConfig],
});

// The warning for a device type whose architecture this CPU cannot run, or null.
export const architectureMismatch = (
  deviceType: string,
  typeArchitecture: string | null,
  detected: string | null,
): string | null =>
  typeArchitecture === null || detected === null || canRunArchitecture(detected, typeArchitecture)
    ? null
    : `the device type ${deviceType} is for ${typeArchitecture} CPUs, but this device's CPU is ${detected}: its releases cannot run here; choose a device type for ${detected}`;

// Looks the chosen device type's architecture up (device types are public) and warns when this
// CPU cannot run it. A failed look-up is logged, never fatal.
export const warnOnDeviceTypeMismatch = async (
  api: ApiClient,
  deviceType: string,
  detected: string | null,
  logger: Logger,
): Promise<void> => {
  try {
    const filter = encodeURIComponent(`slug eq '${deviceType.replaceAll("'", "''")}'`);
    const response = await api.request({
      method: 'GET',
      path: `/v7/device_type?$select=slug&$expand=is_of__cpu_architecture($select=slug)&$filter=${filter}`,
    });
    const warning = architectureMismatch(deviceType, typeArchitectureOf(response.body), detected);
    if (warning) logger.warn(warning);
  } catch (error) {
    logger.debug(
      `could not check the device type's architecture: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
};

const typeArchitectureOf = (body: unknown): string | null => {
  if (typeof body !== 'object' || body === null || !('d' in body) || !Array.isArray(body.d)) {
    return null;
  }
  const [row]: unknown[] = body.d;
  if (typeof row !== 'object' || row === null || !('is_of__cpu_architecture' in row)) return null;
  const architectures = row.is_of__cpu_architecture;
  if (!Array.isArray(architectures)) return null;
  const [first]: unknown[] = architectures;
  return typeof first === 'object' &&
    first !== null &&
    'slug' in first &&
    typeof first.slug === 'string'
    ? first.slug
    : null;
};
