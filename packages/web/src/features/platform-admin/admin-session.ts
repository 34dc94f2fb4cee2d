import { adminReturnTokenKey } from '@flotilla/shared/users/admin-users';

// sessionStorage: the administrator's own token stays with this tab only and is gone when the
// tab closes; it may be missing or throw (privacy modes), then there is simply no way back.
export const tabStorage = (): Storage | null => {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
};

// Signing out forgets the kept token too.
export const forgetAdminReturn = (): void => {
  tabStorage()?.removeItem(adminReturnTokenKey);
};
