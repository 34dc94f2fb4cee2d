import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ContainerAppHarness,
  startContainerApp,
  testApp,
  testService,
} from '../test-support/container-app-harness.js';

const handOver = (timeoutMs?: number) => ({
  labels: {
    'io.balena.update.strategy': 'hand-over',
    ...(timeoutMs === undefined ? {} : { 'io.balena.update.handover-timeout': String(timeoutMs) }),
  },
});

describe('ContainerApp: the hand-over update strategy', () => {
  let harness: ContainerAppHarness;

  beforeEach(async () => {
    harness = await startContainerApp();
    await harness.apply(testApp('a1', [testService('main', 'a1', handOver())]));
    harness.engine.calls.length = 0;
  });

  afterEach(async () => {
    await harness.close();
  });

  const states = () => harness.engine.containersOf('main').map((container) => container.state);

  it('starts the new container beside the old one and kills the old one once the new one hands over', async () => {
    const { engine, containerApp, lockDir, logs } = harness;
    // A signal left from an earlier hand-over must not end this one at once.
    await writeFile(join(lockDir, 'main', 'handover-complete'), '');
    containerApp.setTarget(testApp('b2', [testService('main', 'b2', handOver())]), false);
    await harness.logged("Waiting for service 'main' to hand over");
    expect(engine.calls).toEqual([
      `pull ${testService('main', 'b2').image}`,
      'create main',
      'start main',
    ]);
    expect(states()).toEqual(['running', 'running']);

    // The new container says so through /tmp/balena, which is the service's lock directory.
    await writeFile(join(lockDir, 'main', 'handover-complete'), '');
    await containerApp.settled;
    expect(engine.calls.slice(3)).toEqual([
      'stop main',
      'remove main',
      `remove-image ${testService('main', 'a1').image}`,
    ]);
    expect(engine.containersOf('main').map((container) => container.image)).toEqual([
      testService('main', 'b2').image,
    ]);
    expect(logs).toContain("Service 'main' handed over");
    // Cleared for the next hand-over.
    expect(await readdir(join(lockDir, 'main'))).toEqual([]);
    expect(containerApp.report()['app-uuid']?.release_uuid).toBe('b2');
  });

  it("takes resin's older signal too", async () => {
    const { containerApp, lockDir } = harness;
    containerApp.setTarget(testApp('b2', [testService('main', 'b2', handOver())]), false);
    await harness.logged("Waiting for service 'main' to hand over");
    await writeFile(join(lockDir, 'main', 'resin-kill-me'), '');
    await containerApp.settled;
    expect(states()).toEqual(['running']);
    expect(harness.logs).toContain("Service 'main' handed over");
  });

  it('kills the old container at the hand-over timeout when the new one never signals', async () => {
    const { engine, clock, containerApp, logs } = harness;
    containerApp.setTarget(testApp('b2', [testService('main', 'b2', handOver(5000))]), false);
    await harness.logged("Waiting for service 'main' to hand over");
    clock.advance(4999);
    expect(logs.some((line) => line.includes('did not hand over'))).toBe(false);
    clock.advance(1);
    expect(logs).toContain("Service 'main' did not hand over within 5000 ms");
    await containerApp.settled;
    expect(engine.calls.slice(3, 5)).toEqual(['stop main', 'remove main']);
    expect(states()).toEqual(['running']);
    expect(containerApp.report()['app-uuid']?.release_uuid).toBe('b2');
  });

  it('waits 60 s by default', async () => {
    const { clock, containerApp, logs } = harness;
    containerApp.setTarget(testApp('b2', [testService('main', 'b2', handOver())]), false);
    await harness.logged("Waiting for service 'main' to hand over");
    clock.advance(59_999);
    expect(states()).toEqual(['running', 'running']);
    expect(logs.some((line) => line.includes('did not hand over'))).toBe(false);
    clock.advance(1);
    await containerApp.settled;
    expect(states()).toEqual(['running']);
  });

  it('replaces the container as download-then-kill does when only its variables change (the new one would take its name)', async () => {
    const { engine } = harness;
    await harness.apply(
      testApp('a1', [testService('main', 'a1', { ...handOver(), environment: { MODE: 'fast' } })]),
    );
    expect(engine.calls).toEqual(['stop main', 'remove main', 'create main', 'start main']);
  });

  it('leaves both containers when the agent stops during a hand-over, and reports no failure', async () => {
    const { containerApp, logs } = harness;
    containerApp.setTarget(testApp('b2', [testService('main', 'b2', handOver())]), false);
    await harness.logged("Waiting for service 'main' to hand over");
    containerApp.stop();
    await containerApp.settled;
    expect(states()).toEqual(['running', 'running']);
    expect(logs.some((line) => line.startsWith('Update failed'))).toBe(false);
  });
});
