import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

// The agent's own packages on the device: the packages it updated itself to, which of them the
// launcher runs, and how the last self-update went. The package the service manager starts (the
// one npm installed) stays as it is: it is the launcher, and the fallback when nothing else is
// left to run.

export type InstalledPackage = {
  // The supervisor release version the package was installed as (reported as supervisor_version).
  version: string;
  sha256: string;
  // Holds the unpacked package (`<dir>/package/cli.js`).
  dir: string;
};

export type UpdateOutcome = {
  version: string;
  result: 'updated' | 'rolled-back';
  reason: string | null;
  // Written to the device's log once, by the agent that runs after it.
  announced: boolean;
};

export type AgentHomeState = {
  // The package the launcher runs; null: the installed package runs itself.
  current: InstalledPackage | null;
  // What `current` replaced: the package a failed update rolls back to.
  previous: InstalledPackage | null;
  // Set while `current` is new and has not reported in yet (milliseconds since the epoch).
  trial: { startedAt: number } | null;
  // Packages (sha256) that did not come back healthy: never tried again.
  rejected: string[];
  lastOutcome: UpdateOutcome | null;
};

export const emptyHomeState: AgentHomeState = {
  current: null,
  previous: null,
  trial: null,
  rejected: [],
  lastOutcome: null,
};

const stateFile = (home: string): string => path.join(home, 'state.json');

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const readPackage = (value: unknown): InstalledPackage | null =>
  isRecord(value) &&
  typeof value.version === 'string' &&
  typeof value.sha256 === 'string' &&
  typeof value.dir === 'string'
    ? { version: value.version, sha256: value.sha256, dir: value.dir }
    : null;

const readOutcome = (value: unknown): UpdateOutcome | null =>
  isRecord(value) &&
  typeof value.version === 'string' &&
  (value.result === 'updated' || value.result === 'rolled-back')
    ? {
        version: value.version,
        result: value.result,
        reason: typeof value.reason === 'string' ? value.reason : null,
        announced: value.announced === true,
      }
    : null;

// A missing or unreadable file is an agent that never updated itself.
export const readHomeState = async (home: string): Promise<AgentHomeState> => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(stateFile(home), 'utf8'));
  } catch {
    return emptyHomeState;
  }
  if (!isRecord(parsed)) return emptyHomeState;
  const trial = isRecord(parsed.trial) ? parsed.trial.startedAt : undefined;
  return {
    current: readPackage(parsed.current),
    previous: readPackage(parsed.previous),
    trial: typeof trial === 'number' ? { startedAt: trial } : null,
    rejected: Array.isArray(parsed.rejected)
      ? parsed.rejected.filter((entry): entry is string => typeof entry === 'string')
      : [],
    lastOutcome: readOutcome(parsed.lastOutcome),
  };
};

// Through a temporary file and a rename: a power cut leaves the old state or the new one.
export const writeHomeState = async (home: string, state: AgentHomeState): Promise<void> => {
  await mkdir(home, { recursive: true, mode: 0o700 });
  const temporary = `${stateFile(home)}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, stateFile(home));
};

// The package that did not come back is set aside and the one before it runs again.
export const rolledBack = (state: AgentHomeState, reason: string): AgentHomeState => {
  const failed = state.current;
  if (failed === null) return { ...state, trial: null };
  return {
    current: state.previous,
    previous: null,
    trial: null,
    rejected: [...new Set([...state.rejected, failed.sha256])],
    lastOutcome: { version: failed.version, result: 'rolled-back', reason, announced: false },
  };
};

// The new package announced itself in the device's log when it reported in.
export const confirmed = (state: AgentHomeState): AgentHomeState =>
  state.current === null
    ? { ...state, trial: null }
    : {
        ...state,
        trial: null,
        lastOutcome: {
          version: state.current.version,
          result: 'updated',
          reason: null,
          announced: true,
        },
      };
