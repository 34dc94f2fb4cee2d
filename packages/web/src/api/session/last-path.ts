// The last path a signed-in user visited, per user, restored after the next login unless it is
// the fleet list (where a login lands anyway).
const key = (userId: number): string => `flotilla.lastPath.${userId}`;

export const rememberLastPath = (userId: number, path: string): void => {
  try {
    window.localStorage.setItem(key(userId), path);
  } catch {
    // Storage may be unavailable (private mode); remembering is a convenience only.
  }
};

export const lastPathToRestore = (userId: number): string | null => {
  try {
    const path = window.localStorage.getItem(key(userId));
    return path && path !== '/fleets' && path.startsWith('/') ? path : null;
  } catch {
    return null;
  }
};
