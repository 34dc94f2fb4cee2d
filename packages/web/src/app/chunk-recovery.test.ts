import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadRouteChunk, reloadedForBuildKey, reloadOncePerBuild } from './chunk-recovery.js';

const memoryStorage = () => {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
};

afterEach(() => {
  vi.useRealTimers();
});

describe('reloadOncePerBuild', () => {
  it('reloads once per build, never in a loop', () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    expect(reloadOncePerBuild({ storage, reload, build: 'A' })).toBe(true);
    expect(storage.getItem(reloadedForBuildKey)).toBe('A');
    // The reload brought the same build back (the chunk is missing there too): stop.
    expect(reloadOncePerBuild({ storage, reload, build: 'A' })).toBe(false);
    // A later upgrade: the tab may reload once more.
    expect(reloadOncePerBuild({ storage, reload, build: 'B' })).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('does not reload when it cannot remember that it did', () => {
    const reload = vi.fn();
    expect(reloadOncePerBuild({ storage: null, reload, build: 'A' })).toBe(false);
    const throwing = {
      getItem: () => null,
      setItem: () => {
        throw new Error('quota');
      },
    };
    expect(reloadOncePerBuild({ storage: throwing, reload, build: 'A' })).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });
});

describe('loadRouteChunk', () => {
  it('returns the module when it loads', async () => {
    const recover = vi.fn(() => true);
    await expect(loadRouteChunk(async () => ({ Page: 'page' }), recover)).resolves.toEqual({
      Page: 'page',
    });
    expect(recover).not.toHaveBeenCalled();
  });

  it('stays pending while the tab reloads, and surfaces the error when it will not', async () => {
    vi.useFakeTimers();
    const failing = () =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    const settled = vi.fn();
    const recover = vi.fn(() => true);
    void loadRouteChunk(failing, recover).then(settled, settled);
    // Every pending timer and promise has run: the route is still waiting for the reload.
    await vi.runAllTimersAsync();
    expect(recover).toHaveBeenCalledTimes(1);
    expect(settled).not.toHaveBeenCalled();
    await expect(loadRouteChunk(failing, () => false)).rejects.toThrow(/dynamically imported/);
  });

  it('gives up on a chunk that has not arrived after the timeout', async () => {
    vi.useFakeTimers();
    const recover = vi.fn(() => false);
    const loading = loadRouteChunk(() => new Promise<never>(() => undefined), recover, 120_000);
    const outcome = expect(loading).rejects.toThrow(/took too long/);
    await vi.advanceTimersByTimeAsync(119_999);
    expect(recover).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await outcome;
    expect(recover).toHaveBeenCalledTimes(1);
  });
});
