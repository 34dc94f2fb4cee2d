// A route's code that has not arrived after 120 s counts as failed (and can be retried).
export const chunkLoadTimeoutMs = 120_000;

// sessionStorage key: the build (its build time) this tab last reloaded from.
export const reloadedForBuildKey = 'flotilla.reloadedForBuild';

type ReloadGuard = {
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  reload: () => void;
  // The running build: its __FLOTILLA_BUILD_TIME__.
  build: string;
};

// After an upgrade or restart, an open tab asks for chunks of the build it started with; when
// they are gone, a reload fetches the new index.html and its chunks. At most once per build, so a
// chunk that is missing from the new build too shows the error screen instead of a reload loop.
export const reloadOncePerBuild = ({ storage, reload, build }: ReloadGuard): boolean => {
  if (!storage) return false;
  try {
    if (storage.getItem(reloadedForBuildKey) === build) return false;
    storage.setItem(reloadedForBuildKey, build);
  } catch {
    return false;
  }
  reload();
  return true;
};

const sessionStorageOrNull = (): Storage | null => {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
};

// Loads `target` (the page the user was going to: a failed navigation has not changed the URL
// yet) as a fresh document, once per build.
export const reloadTabTo = (target: () => string) => (): boolean =>
  reloadOncePerBuild({
    storage: sessionStorageOrNull(),
    reload: () => {
      const url = target();
      const current = `${window.location.pathname}${window.location.search}${window.location.hash}`;
      if (url === current) window.location.reload();
      else window.location.assign(url);
    },
    build: __FLOTILLA_BUILD_TIME__,
  });

const withTimeout = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Loading this page took too long')), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });

// Loads a lazy route's module. When that fails (a chunk of an older build that is gone, a
// network error, the timeout), the tab reloads once; while it does, the route stays pending
// rather than flashing the error screen. Otherwise the error reaches the route's error screen.
export const loadRouteChunk = async <T>(
  load: () => Promise<T>,
  recover: () => boolean,
  timeoutMs: number = chunkLoadTimeoutMs,
): Promise<T> => {
  try {
    return await withTimeout(load(), timeoutMs);
  } catch (error) {
    if (recover()) return new Promise<T>(() => undefined);
    throw error;
  }
};
