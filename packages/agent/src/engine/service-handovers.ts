import { join } from 'node:path';
import type { Scheduler } from '../scheduler.js';
import type { ManagedContainer } from './container-engine.js';
import { configHashOf } from './container-spec.js';
import type { HandoverWait } from './handover.js';
import type { ServiceDirs } from './service-dirs.js';
import type { WantedService } from './wanted-services.js';

// A service whose new container runs beside the old ones until it hands over.
export type HandOver = WantedService & { old: readonly ManagedContainer[] };

// How a changed service's containers are replaced: `fresh` is one already made as the target
// says (an earlier, interrupted hand-over), `old` the rest; `handOver` when the new container can
// stand beside a running old one (another release: another name) until it takes over.
export const replacementOf = (
  wanted: WantedService,
  current: readonly ManagedContainer[],
): { fresh: ManagedContainer | undefined; old: ManagedContainer[]; handOver: boolean } => {
  const { spec, running, strategy } = wanted;
  const fresh = current.find((container) => container.configHash === configHashOf(spec));
  const old = current.filter((container) => container !== fresh);
  const handOver =
    strategy === 'hand-over' &&
    running &&
    old.some((container) => container.state === 'running') &&
    (fresh !== undefined || old.every((container) => container.image !== spec.image));
  return { fresh, old, handOver };
};

export type ServiceHandoversOptions = {
  dirs: ServiceDirs;
  lockDir: string;
  scheduler: Scheduler;
  log(message: string, serviceId?: number): void;
  // Stops and removes containers (the convergence's kill, with its lines).
  kill(containers: readonly ManagedContainer[]): Promise<void>;
};

// The hand-overs in progress: the old containers of each are killed once the new one signals it
// took over, or at the service's hand-over timeout.
export class ServiceHandovers {
  readonly #options: ServiceHandoversOptions;
  readonly #waits = new Set<HandoverWait>();

  constructor(options: ServiceHandoversOptions) {
    this.#options = options;
  }

  async handOver({ service, serviceId, old, handoverTimeoutMs }: HandOver): Promise<void> {
    const { log, scheduler, dirs } = this.#options;
    const dir = join(this.#options.lockDir, service);
    const id = serviceId ?? undefined;
    const wait = dirs.waitForHandover({
      dir,
      timeoutMs: handoverTimeoutMs,
      scheduler,
      onEnd: (outcome) => {
        if (outcome === 'signalled') log(`Service '${service}' handed over`, id);
        if (outcome === 'timed out') {
          log(`Service '${service}' did not hand over within ${handoverTimeoutMs} ms`, id);
        }
      },
    });
    this.#waits.add(wait);
    log(`Waiting for service '${service}' to hand over`, id);
    const outcome = await wait.done;
    this.#waits.delete(wait);
    if (outcome === 'cancelled') throw new Error('the agent stopped during a hand-over');
    await this.#options.kill(old);
    await dirs.clearHandover(dir);
  }

  // The agent stops: every hand-over in progress fails.
  cancelAll(): void {
    for (const wait of this.#waits) wait.cancel();
  }
}
