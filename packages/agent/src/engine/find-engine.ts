import { access } from 'node:fs/promises';
import type { Logger } from '../logger.js';
import { errorText } from '../logger.js';
import type { ContainerEngine } from './container-engine.js';
import { dockerEngine, engineSocketCandidates } from './docker-engine.js';

export type FoundEngine = { engine: ContainerEngine; socket: string };

const exists = async (path: string): Promise<boolean> => {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
};

// The engine the device's releases run on (config's flotilla.containerEngine): none, the socket
// named (used even while it does not answer yet: the device then reports the engine as down), or
// the first socket that answers among DOCKER_HOST, balena-engine's and Docker's.
export const findContainerEngine = async (
  setting: string,
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<FoundEngine | null> => {
  if (setting === 'none') return null;
  if (setting !== 'auto') return { engine: dockerEngine(setting), socket: setting };
  for (const socket of engineSocketCandidates(env)) {
    if (!(await exists(socket))) continue;
    const engine = dockerEngine(socket);
    try {
      await engine.ping();
      return { engine, socket };
    } catch (error) {
      logger.warn(`container engine at ${socket} does not answer: ${errorText(error)}`);
    }
  }
  return null;
};

// balena's name of the CPU architecture Node runs on.
export const balenaArch = (arch: string): string =>
  ({ x64: 'amd64', arm64: 'aarch64', arm: 'armv7hf', ia32: 'i386' })[arch] ?? arch;
