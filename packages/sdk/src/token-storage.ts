// Where the session token (or API key) lives between requests and page loads.
export type TokenStorage = {
  get(): string | null;
  set(token: string): void;
  clear(): void;
};

export const memoryTokenStorage = (initial: string | null = null): TokenStorage => {
  let token = initial;
  return {
    get: () => token,
    set: (value) => {
      token = value;
    },
    clear: () => {
      token = null;
    },
  };
};

// localStorage can be missing (Node, some embedded views) or throw (privacy modes, quota):
// the token then lives in memory for this page only.
const browserStorage = (): Storage | null => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
};

export const localStorageTokenStorage = (key = 'flotilla.token'): TokenStorage => {
  const memory = memoryTokenStorage();
  // Set when writing to localStorage failed: the token then lives in memory only, and a stale
  // stored value must not shadow it.
  let memoryOnly = false;
  return {
    get: () => {
      const storage = memoryOnly ? null : browserStorage();
      if (!storage) return memory.get();
      try {
        return storage.getItem(key);
      } catch {
        return memory.get();
      }
    },
    set: (token) => {
      memory.set(token);
      const storage = browserStorage();
      try {
        if (!storage) throw new Error('localStorage unavailable');
        storage.setItem(key, token);
        memoryOnly = false;
      } catch {
        memoryOnly = true;
        try {
          storage?.removeItem(key);
        } catch {
          // Nothing more to do: memory holds the token.
        }
      }
    },
    clear: () => {
      memory.clear();
      try {
        browserStorage()?.removeItem(key);
        memoryOnly = false;
      } catch {
        // A value that cannot be removed must not be read back either.
        memoryOnly = true;
      }
    },
  };
};
