import { afterEach, describe, expect, it, vi } from 'vitest';
import { localStorageTokenStorage, memoryTokenStorage } from './token-storage.js';

const fakeLocalStorage = (options: { failWrites?: boolean } = {}): Storage => {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => {
      items.delete(key);
    },
    setItem: (key, value) => {
      if (options.failWrites) throw new DOMException('full', 'QuotaExceededError');
      items.set(key, value);
    },
  };
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('memoryTokenStorage', () => {
  it('holds one token', () => {
    const storage = memoryTokenStorage();
    expect(storage.get()).toBeNull();
    storage.set('a');
    expect(storage.get()).toBe('a');
    storage.clear();
    expect(storage.get()).toBeNull();
    expect(memoryTokenStorage('b').get()).toBe('b');
  });
});

describe('localStorageTokenStorage', () => {
  it('keeps the token under flotilla.token', () => {
    const local = fakeLocalStorage();
    vi.stubGlobal('localStorage', local);
    const storage = localStorageTokenStorage();
    storage.set('token');
    expect(local.getItem('flotilla.token')).toBe('token');
    expect(storage.get()).toBe('token');
    // Another tab logging out is seen here too.
    local.removeItem('flotilla.token');
    expect(storage.get()).toBeNull();
    storage.set('again');
    storage.clear();
    expect(local.getItem('flotilla.token')).toBeNull();
  });

  it('uses the given key', () => {
    const local = fakeLocalStorage();
    vi.stubGlobal('localStorage', local);
    localStorageTokenStorage('other').set('x');
    expect(local.getItem('other')).toBe('x');
  });

  it('falls back to memory when localStorage is missing', () => {
    vi.stubGlobal('localStorage', undefined);
    const storage = localStorageTokenStorage();
    storage.set('token');
    expect(storage.get()).toBe('token');
    storage.clear();
    expect(storage.get()).toBeNull();
  });

  it('falls back to memory when localStorage throws', () => {
    vi.stubGlobal('localStorage', fakeLocalStorage({ failWrites: true }));
    const storage = localStorageTokenStorage();
    storage.set('token');
    expect(storage.get()).toBe('token');

    const throwing = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      removeItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
    };
    vi.stubGlobal('localStorage', throwing);
    const denied = localStorageTokenStorage();
    denied.set('t');
    expect(denied.get()).toBe('t');
    denied.clear();
    expect(denied.get()).toBeNull();
  });
});
