import type { LogLine } from '../runtime/device-runtime.js';
import type { ContainerEngine, ManagedContainer } from './container-engine.js';

// Each running container's output, from where the agent last saw it: a container that existed
// before the agent started from the start, one that restarted from its last line (the engine
// ends a container's stream when it stops).
export class ContainerLogs {
  readonly #engine: ContainerEngine;
  readonly #serviceLog: (line: LogLine) => void;
  readonly #following = new Map<string, () => void>();
  // The time of the last line passed on, per container (an object each, moved on in place:
  // a simulator passes on thousands of lines a minute).
  readonly #lastLine = new Map<string, { at: number }>();
  #startedAt = 0;

  constructor(engine: ContainerEngine, serviceLog: (line: LogLine) => void) {
    this.#engine = engine;
    this.#serviceLog = serviceLog;
  }

  start(now: number): void {
    this.#startedAt = now;
  }

  stop(): void {
    for (const unfollow of this.#following.values()) unfollow();
    this.#following.clear();
  }

  // A container about to be removed: its stream ends now.
  forget(id: string): void {
    this.#following.get(id)?.();
    this.#following.delete(id);
  }

  // Follows every running container not followed yet; forgets the ones gone.
  follow(containers: readonly ManagedContainer[]): void {
    const live = new Set(containers.map((container) => container.id));
    for (const [id, unfollow] of this.#following) {
      if (!live.has(id)) {
        unfollow();
        this.#following.delete(id);
        this.#lastLine.delete(id);
      }
    }
    for (const container of containers) {
      if (container.state !== 'running' || this.#following.has(container.id)) continue;
      this.#followOne(container);
    }
  }

  #followOne(container: ManagedContainer): void {
    const { id, serviceId } = container;
    let last = this.#lastLine.get(id);
    const after = last?.at ?? this.#startedAt - 1;
    // Marked before the answer, so two reads never follow one container twice.
    this.#following.set(id, () => undefined);
    this.#engine
      .followLogs(
        id,
        Math.floor(after / 1000),
        (message, isStdErr, timestamp) => {
          // The engine answers from the whole second: lines passed on before this follow began
          // are skipped. Within one stream every line is new, two in the same millisecond too.
          if (timestamp <= after) return;
          if (last) last.at = timestamp;
          else {
            last = { at: timestamp };
            this.#lastLine.set(id, last);
          }
          this.#serviceLog(
            serviceId === null
              ? { message, timestamp, isStdErr }
              : { message, timestamp, isStdErr, serviceId },
          );
        },
        () => {
          // Stopped or restarted: the next read follows it again if it runs.
          this.#following.delete(id);
          if (!this.#lastLine.has(id)) this.#lastLine.set(id, { at: after });
        },
      )
      .then(
        (unfollow) => {
          if (this.#following.has(id)) this.#following.set(id, unfollow);
          else unfollow();
        },
        () => this.#following.delete(id),
      );
  }
}
