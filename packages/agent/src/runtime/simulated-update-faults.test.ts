import { describe, expect, it } from 'vitest';
import { setup, target } from '../test-support/simulated-device-world.js';

// A bad release on a simulated device: the fault shows only on releases after the first one the
// device ran, in what the device reports (its services' statuses), so rollouts meet it.
describe('SimulatedDevice update faults', () => {
  const webStatus = (device: ReturnType<typeof setup>['device'], commit: string) =>
    device.info().apps['app-uuid']?.releases[commit]?.services.web?.status;

  it('crash-loops the services of a new release, not of the first one', async () => {
    const { clock, device } = setup();
    device.updateFault = 'crash-loop';
    device.applyTarget(target('c1'), false);
    await clock.runFor(10_000);
    expect(webStatus(device, 'c1')).toBe('Running');
    device.applyTarget(target('c2', ['web']), false);
    await clock.runFor(10_000);
    expect(webStatus(device, 'c2')).toBe('Starting');
  });

  it('fails the health check of a new release', async () => {
    const { clock, device } = setup();
    device.updateFault = 'failing-check';
    device.applyTarget(target('c1'), false);
    await clock.runFor(10_000);
    device.applyTarget(target('c2', ['web']), false);
    await clock.runFor(10_000);
    expect(webStatus(device, 'c2')).toBe('Unhealthy');
  });

  it('runs new releases well without a fault', async () => {
    const { clock, device } = setup();
    device.applyTarget(target('c1'), false);
    await clock.runFor(10_000);
    device.applyTarget(target('c2', ['web']), false);
    await clock.runFor(10_000);
    expect(webStatus(device, 'c2')).toBe('Running');
  });
});
