import type { ContainerSpec } from './container-engine.js';
import { type HandoverWait, type HandoverWaitOptions, handoverWait } from './handover.js';
import type { ServiceDirs } from './service-dirs.js';

// A simulated device's service lock directories, in memory. Each container sees its service's as
// /tmp/balena (the bind the agent gives every container); a simulated service updated by
// hand-over writes handover-complete there once it runs (simulated-engine.ts), as a real one
// does, and the wait for it ends, as real mode's file watch does (handover.ts).
export class SimulatedLockDirs implements ServiceDirs {
  readonly #signalled = new Set<string>();
  readonly #watchers = new Map<string, () => void>();

  async make(): Promise<void> {}

  async clearHandover(dir: string): Promise<void> {
    this.#signalled.delete(dir);
  }

  waitForHandover(options: HandoverWaitOptions): HandoverWait {
    const { dir } = options;
    return handoverWait(options, (found) => {
      if (this.#signalled.has(dir)) {
        found();
        return () => undefined;
      }
      this.#watchers.set(dir, found);
      return () => {
        if (this.#watchers.get(dir) === found) this.#watchers.delete(dir);
      };
    });
  }

  // A container wrote handover-complete into its /tmp/balena.
  signal(dir: string): void {
    this.#signalled.add(dir);
    this.#watchers.get(dir)?.();
  }
}

const handsOver = (labels: Readonly<Record<string, string>>): boolean =>
  (labels['io.balena.update.strategy'] ?? labels['io.resin.update.strategy']) === 'hand-over';

// The host directory a container of a service updated by hand-over sees as /tmp/balena: where it
// signals that it took over. Undefined for other services.
export const handoverDirOf = (spec: ContainerSpec): string | undefined => {
  if (!handsOver(spec.labels)) return undefined;
  const bind = spec.binds?.find((line) => line.endsWith(':/tmp/balena'));
  return bind?.slice(0, bind.length - ':/tmp/balena'.length);
};
