import { describe, expect, it } from 'vitest';
import { createDisabledReasonLookup } from './disabled-reasons.js';

type Device = { uuid: string; online: boolean };

const devices = (count: number): Device[] =>
  Array.from({ length: count }, (_, index) => ({ uuid: `d${index}`, online: index % 2 === 0 }));

// A lookup whose answers the test releases by hand, counting how many are in flight.
const gatedLookup = () => {
  let inFlight = 0;
  let most = 0;
  const asked: string[] = [];
  const pending: (() => void)[] = [];
  const lookup = (device: Device) =>
    new Promise<string | null>((resolve, reject) => {
      asked.push(device.uuid);
      inFlight += 1;
      most = Math.max(most, inFlight);
      pending.push(() => {
        inFlight -= 1;
        if (device.uuid === 'd5') reject(new Error('API unavailable'));
        else resolve(device.online ? null : 'Device must be online');
      });
    });
  const releaseAll = async () => {
    while (pending.length > 0) {
      for (const release of pending.splice(0)) release();
      await Promise.resolve();
      await Promise.resolve();
    }
  };
  return { lookup, asked, pending, releaseAll, most: () => most };
};

describe('createDisabledReasonLookup', () => {
  it("asks about 10 devices at a time and answers each one's reason", async () => {
    const gate = gatedLookup();
    const reasonsOf = createDisabledReasonLookup(gate.lookup, (device: Device) => device.uuid);
    const answer = reasonsOf(devices(25));
    await Promise.resolve();
    expect(gate.pending).toHaveLength(10);
    await gate.releaseAll();
    const reasons = await answer;
    expect(gate.most()).toBe(10);
    expect(gate.asked).toHaveLength(25);
    expect(reasons.get('d0')).toBeNull();
    expect(reasons.get('d1')).toBe('Device must be online');
    expect(reasons.get('d5')).toBe('Could not check: API unavailable');
  });

  it('keeps the answers for the same devices 5 seconds, for the last selection only', async () => {
    let clock = 1_000;
    const gate = gatedLookup();
    const reasonsOf = createDisabledReasonLookup(
      gate.lookup,
      (device: Device) => device.uuid,
      () => clock,
    );
    const three = devices(3);
    const first = reasonsOf(three);
    await gate.releaseAll();
    await first;
    clock += 4_999;
    expect(await reasonsOf(three)).toBe(await first);
    expect(gate.asked).toHaveLength(3);
    clock += 1;
    const again = reasonsOf(three);
    await gate.releaseAll();
    await again;
    expect(gate.asked).toHaveLength(6);
    // Another selection replaces the one entry: going back asks again.
    const other = reasonsOf(devices(1));
    await gate.releaseAll();
    await other;
    const back = reasonsOf(three);
    await gate.releaseAll();
    await back;
    expect(gate.asked).toHaveLength(10);
  });
});
