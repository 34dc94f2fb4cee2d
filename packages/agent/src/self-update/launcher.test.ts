import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import { ManualClock } from '../test-support/manual-clock.js';
import {
  type AgentHomeState,
  emptyHomeState,
  type InstalledPackage,
  readHomeState,
  writeHomeState,
} from './agent-home.js';
import { type AgentChild, restartExitCode, runLauncher } from './launcher.js';

// The launcher keeps a new agent package once it reports in, and rolls it back when it exits
// first or stays silent past the health timeout; an expired trial found at start is rolled back
// before anything runs.

const healthTimeoutMs = 60_000;

const pkg = (version: string, sha: string): InstalledPackage => ({
  version,
  sha256: sha.repeat(64),
  dir: `/agent/packages/${version}`,
});
const old = pkg('17.1.0', 'a');
const fresh = pkg('17.2.0', 'b');

class FakeChild implements AgentChild {
  readonly killed: NodeJS.Signals[] = [];
  #reportedIn: (() => void)[] = [];
  #exit: ((code: number) => void)[] = [];
  onReportedIn(listener: () => void): void {
    this.#reportedIn.push(listener);
  }
  onExit(listener: (code: number) => void): void {
    this.#exit.push(listener);
  }
  kill(signal: NodeJS.Signals): void {
    this.killed.push(signal);
    this.exit(143);
  }
  reportIn(): void {
    for (const listener of this.#reportedIn) listener();
  }
  exit(code: number): void {
    for (const listener of this.#exit) listener(code);
  }
}

describe('runLauncher', () => {
  let home: string;
  let clock: ManualClock;
  let spawned: InstalledPackage[];
  let child: FakeChild;

  const launch = () =>
    runLauncher({
      home,
      clock,
      healthTimeoutMs,
      logger: silentLogger,
      spawnAgent: (installed) => {
        spawned.push(installed);
        child = new FakeChild();
        return child;
      },
    });

  const onTrial = (startedAt: number): AgentHomeState => ({
    ...emptyHomeState,
    current: fresh,
    previous: old,
    trial: { startedAt },
  });

  beforeEach(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'flotilla-launcher-'));
    clock = new ManualClock();
    spawned = [];
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('lets the installed package run itself when the agent never updated itself', async () => {
    expect(await launch()).toBe('in-process');
    expect(spawned).toEqual([]);
  });

  it('keeps a new package once it reports in, and passes its exit code on', async () => {
    await writeHomeState(home, onTrial(clock.now()));
    const run = launch();
    await expect.poll(() => spawned.length).toBe(1);
    expect(spawned[0]).toEqual(fresh);
    child.reportIn();
    clock.advance(healthTimeoutMs * 2);
    child.exit(0);
    expect(await run).toBe(0);
    expect(await readHomeState(home)).toMatchObject({
      current: fresh,
      previous: old,
      trial: null,
      lastOutcome: { version: '17.2.0', result: 'updated', announced: true },
    });
  });

  it('rolls back a package that exits before it reports in', async () => {
    await writeHomeState(home, onTrial(clock.now()));
    const run = launch();
    await expect.poll(() => spawned.length).toBe(1);
    child.exit(1);
    expect(await run).toBe(restartExitCode);
    expect(await readHomeState(home)).toEqual({
      current: old,
      previous: null,
      trial: null,
      rejected: [fresh.sha256],
      lastOutcome: {
        version: '17.2.0',
        result: 'rolled-back',
        reason: 'it exited with code 1 before it reported in',
        announced: false,
      },
    });
  });

  it('stops and rolls back a package that stays silent past the health timeout', async () => {
    await writeHomeState(home, onTrial(clock.now()));
    const run = launch();
    await expect.poll(() => spawned.length).toBe(1);
    clock.advance(healthTimeoutMs - 1);
    expect(child.killed).toEqual([]);
    clock.advance(1);
    expect(await run).toBe(restartExitCode);
    expect(child.killed).toEqual(['SIGTERM']);
    const state = await readHomeState(home);
    expect(state.current).toEqual(old);
    expect(state.lastOutcome?.reason).toBe('it did not report in within 60 s');
  });

  it('rolls back before anything runs when the trial expired while the launcher was down', async () => {
    await writeHomeState(home, {
      ...onTrial(clock.now() - healthTimeoutMs),
      previous: null,
    });
    expect(await launch()).toBe('in-process');
    expect(spawned).toEqual([]);
    expect(await readHomeState(home)).toMatchObject({
      current: null,
      rejected: [fresh.sha256],
      lastOutcome: { result: 'rolled-back' },
    });
  });

  it('runs a kept package without a trial', async () => {
    await writeHomeState(home, { ...emptyHomeState, current: fresh });
    const run = launch();
    await expect.poll(() => spawned.length).toBe(1);
    clock.advance(healthTimeoutMs * 2);
    expect(child.killed).toEqual([]);
    child.exit(3);
    expect(await run).toBe(3);
  });
});
