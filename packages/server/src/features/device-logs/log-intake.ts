import type { StoredLine } from './log-line.js';
import type { LogHub } from './log-hub.js';
import type { LogWriter } from './log-writer.js';

// Where every accepted line enters: stamped with the time it arrived and its order in this
// process (`seq`, across devices), handed to this process's live streams at once and queued for
// storage. Live streams use `lastSeq` to tell the lines they will get live from those they must
// read as history (log-subscription.ts).

export type LogIntake = {
  // A random id of this process, stored with its lines.
  origin: number;
  accept(deviceId: number, lines: readonly StoredLine[]): void;
  lastSeq(): number;
};

export const createLogIntake = (deps: {
  origin: number;
  hub: LogHub;
  writer: LogWriter;
  now: () => Date;
}): LogIntake => {
  let seq = 0;
  return {
    origin: deps.origin,
    accept(deviceId, lines) {
      if (lines.length === 0) return;
      const createdAt = deps.now().getTime();
      const ingested = lines.map((line) => ({ deviceId, createdAt, seq: ++seq, line }));
      deps.hub.publish(deviceId, ingested);
      deps.writer.write(ingested);
    },
    lastSeq: () => seq,
  };
};
