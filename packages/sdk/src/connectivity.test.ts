import { describe, expect, it } from 'vitest';
import { type ConnectivityState, createConnectivity, type NetworkStatus } from './connectivity.js';
import { createFakeClock } from './test-support/fake-clock.js';

// The browser's network state, driven by the test: go(false) fires "offline".
const fakeNetwork = (initiallyOnline = true) => {
  let online = initiallyOnline;
  const listeners = new Set<(online: boolean) => void>();
  const network: NetworkStatus = {
    isOnline: () => online,
    subscribe(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
  };
  return {
    network,
    listeners,
    go(next: boolean) {
      online = next;
      for (const listener of [...listeners]) listener(next);
    },
  };
};

const setup = (network: NetworkStatus | null = null) => {
  const clock = createFakeClock();
  let reachable = false;
  const pings: number[] = [];
  const connectivity = createConnectivity(
    clock,
    async () => {
      pings.push(clock.now());
      if (!reachable) throw new Error('unreachable');
    },
    network,
  );
  const states: ConnectivityState[] = [];
  connectivity.subscribe((state) => states.push(state));
  return {
    clock,
    connectivity,
    pings,
    states,
    setReachable: (value: boolean) => {
      reachable = value;
    },
  };
};

describe('createConnectivity', () => {
  it('pings after a failure, retrying after 200 ms x failures, and is lost at 3 failures', async () => {
    const { clock, connectivity, pings, states } = setup();
    const start = clock.now();
    connectivity.reportFailure();
    await clock.advance(0);
    expect(connectivity.getState()).toEqual({ lost: false, failures: 1 });
    await clock.advance(200);
    expect(connectivity.getState()).toEqual({ lost: false, failures: 2 });
    await clock.advance(400);
    expect(connectivity.getState()).toEqual({ lost: true, failures: 3 });
    await clock.advance(600);
    expect(pings.map((at) => at - start)).toEqual([0, 200, 600, 1200]);
    expect(states.map((state) => state.lost)).toEqual([false, false, true, true]);
  });

  it('caps the retry delay at 2 s (10 steps)', async () => {
    const { clock, connectivity, pings } = setup();
    connectivity.reportFailure();
    await clock.advance(30_000);
    const gaps = pings.slice(1).map((at, index) => at - (pings[index] ?? 0));
    expect(gaps.slice(0, 10)).toEqual([200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800, 2000]);
    expect(new Set(gaps.slice(9))).toEqual(new Set([2000]));
  });

  it('clears the lost state and resends queued requests on the first success', async () => {
    const { clock, connectivity, setReachable, states } = setup();
    let resent = 0;
    const queued = connectivity.enqueue(async () => {
      resent += 1;
      return 'data';
    });
    connectivity.reportFailure();
    await clock.advance(1200);
    expect(connectivity.getState().lost).toBe(true);
    expect(resent).toBe(0);

    setReachable(true);
    await clock.advance(800);
    expect(await queued).toBe('data');
    expect(resent).toBe(1);
    expect(connectivity.getState()).toEqual({ lost: false, failures: 0 });
    expect(states.at(-1)).toEqual({ lost: false, failures: 0 });
  });

  it('recovers when any request gets an answer meanwhile', async () => {
    const { clock, connectivity, pings } = setup();
    const queued = connectivity.enqueue(async () => 'again');
    connectivity.reportFailure();
    await clock.advance(700);
    connectivity.reportSuccess();
    expect(await queued).toBe('again');
    const pingCount = pings.length;
    await clock.advance(10_000);
    expect(pings).toHaveLength(pingCount);
  });

  it('pings at once on retryNow', async () => {
    const { clock, connectivity, pings, setReachable } = setup();
    connectivity.reportFailure();
    await clock.advance(0);
    expect(pings).toHaveLength(1);
    setReachable(true);
    connectivity.retryNow();
    await clock.advance(0);
    expect(pings).toHaveLength(2);
    expect(connectivity.getState()).toEqual({ lost: false, failures: 0 });
  });

  it('drops a queued request whose signal aborts', async () => {
    const { clock, connectivity, setReachable } = setup();
    const controller = new AbortController();
    let resent = false;
    const queued = connectivity
      .enqueue(async () => {
        resent = true;
      }, controller.signal)
      .catch((error: unknown) => error);
    connectivity.reportFailure();
    controller.abort(new Error('unmounted'));
    expect(((await queued) as Error).message).toBe('unmounted');
    setReachable(true);
    await clock.advance(1000);
    expect(resent).toBe(false);
  });

  it('stop cancels the scheduled retry', async () => {
    const { clock, connectivity, pings } = setup();
    const stop = connectivity.start();
    connectivity.reportFailure();
    await clock.advance(0);
    stop();
    await clock.advance(10_000);
    expect(pings).toHaveLength(1);
  });

  describe('with the browser network state', () => {
    it('is lost at once when the browser goes offline, and pings on', async () => {
      const browser = fakeNetwork();
      const { clock, connectivity, pings, states } = setup(browser.network);
      connectivity.start();
      expect(connectivity.getState().lost).toBe(false);
      browser.go(false);
      expect(connectivity.getState().lost).toBe(true);
      expect(states.map((state) => state.lost)).toEqual([true]);
      await clock.advance(600);
      // The pings still run (200 ms x failures) while offline, and keep it lost.
      expect(pings.length).toBeGreaterThanOrEqual(3);
      expect(connectivity.getState().lost).toBe(true);
    });

    it('pings at once when the browser comes back online, and recovers on the answer', async () => {
      const browser = fakeNetwork();
      const { clock, connectivity, pings, setReachable } = setup(browser.network);
      connectivity.start();
      browser.go(false);
      await clock.advance(3000);
      const before = pings.length;
      setReachable(true);
      browser.go(true);
      await clock.advance(0);
      expect(pings).toHaveLength(before + 1);
      expect(connectivity.getState()).toEqual({ lost: false, failures: 0 });
    });

    it('stays lost and keeps pinging while offline, whatever answer arrives late', async () => {
      const browser = fakeNetwork();
      const { clock, connectivity, pings, setReachable } = setup(browser.network);
      connectivity.start();
      browser.go(false);
      // A request sent before the network went is answered after: it must not clear the state.
      connectivity.reportSuccess();
      expect(connectivity.getState().lost).toBe(true);
      // Nor a ping in flight that gets through.
      setReachable(true);
      await clock.advance(0);
      expect(connectivity.getState().lost).toBe(true);
      setReachable(false);
      const before = pings.length;
      await clock.advance(5000);
      expect(pings.length).toBeGreaterThan(before);
      expect(connectivity.getState().lost).toBe(true);
      // Back online: the next answer clears it.
      setReachable(true);
      browser.go(true);
      await clock.advance(0);
      expect(connectivity.getState()).toEqual({ lost: false, failures: 0 });
    });

    it('starts lost when the browser is already offline', async () => {
      const browser = fakeNetwork(false);
      const { connectivity } = setup(browser.network);
      expect(connectivity.getState().lost).toBe(false);
      connectivity.start();
      expect(connectivity.getState().lost).toBe(true);
    });

    it('stops listening on stop', () => {
      const browser = fakeNetwork();
      const { connectivity } = setup(browser.network);
      const stop = connectivity.start();
      expect(browser.listeners.size).toBe(1);
      stop();
      expect(browser.listeners.size).toBe(0);
      browser.go(false);
      expect(connectivity.getState().lost).toBe(false);
    });
  });
});
