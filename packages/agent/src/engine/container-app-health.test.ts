import { afterEach, describe, expect, it } from 'vitest';
import {
  type ContainerAppHarness,
  startContainerApp,
  testApp,
  testService,
} from '../test-support/container-app-harness.js';

describe("ContainerApp: a service's health check in the state report", () => {
  let harness: ContainerAppHarness | undefined;

  afterEach(async () => {
    await harness?.close();
  });

  const statusOf = (found: ContainerAppHarness, service: string): string | undefined =>
    found.containerApp.report()['app-uuid']?.releases.a1?.services[service]?.status;

  it('reports a running container whose check fails as Unhealthy, and as Running once it passes', async () => {
    harness = await startContainerApp();
    const { engine, clock, apply } = harness;
    const healthcheck = { test: ['CMD', 'true'], intervalMs: 1000 };
    await apply(
      testApp('a1', [
        testService('main', 'a1', { composition: { healthcheck } }),
        testService('worker', 'a1'),
      ]),
    );
    const setHealth = (health: 'starting' | 'healthy' | 'unhealthy'): void => {
      for (const container of engine.containers.values()) {
        if (container.service === 'main') container.health = health;
      }
    };
    // Not decided yet: the container runs, as the supervisor says.
    setHealth('starting');
    await clock.runFor(5000);
    expect(statusOf(harness, 'main')).toBe('Running');
    setHealth('unhealthy');
    // Within the engine's refresh interval.
    await clock.runFor(5000);
    expect(statusOf(harness, 'main')).toBe('Unhealthy');
    expect(statusOf(harness, 'worker')).toBe('Running');
    // Nothing is replaced for it: the engine's restart policy and the user decide.
    expect(engine.calls.filter((call) => call.startsWith('stop'))).toEqual([]);
    setHealth('healthy');
    await clock.runFor(5000);
    expect(statusOf(harness, 'main')).toBe('Running');
  });
});
