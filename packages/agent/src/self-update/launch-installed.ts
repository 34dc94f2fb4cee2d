import path from 'node:path';
import { systemClock } from '../clock.js';
import { loadAgentConfig } from '../config.js';
import type { Logger } from '../logger.js';
import { runLauncher, spawnPackagedAgent } from './launcher.js';

// Where the agent keeps the packages it updated itself to, unless config.json says.
export const agentHomeOf = (configPath: string, configured: string | null): string =>
  configured ?? path.join(path.dirname(path.resolve(configPath)), 'flotilla-agent');

// The installed package's first step in real mode: run the package the agent updated itself to,
// if any. 'in-process' when there is none (or config.json cannot be read: the agent says why).
export const launchInstalledPackage = async (
  configPath: string,
  args: readonly string[],
  logger: Logger,
): Promise<number | 'in-process'> => {
  let config;
  try {
    config = await loadAgentConfig(configPath);
  } catch {
    return 'in-process';
  }
  return runLauncher({
    home: agentHomeOf(configPath, config.host.agentHome),
    clock: systemClock,
    healthTimeoutMs: config.host.selfUpdateHealthTimeout,
    logger: logger.child('launcher:'),
    spawnAgent: spawnPackagedAgent(args),
    onSignal: (forward) => {
      process.on('SIGTERM', () => forward('SIGTERM'));
      process.on('SIGINT', () => forward('SIGINT'));
    },
  });
};
