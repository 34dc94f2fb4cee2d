import { passwordLength } from '@flotilla/shared/constants/limits';
import { useSyncExternalStore } from 'react';

// Passwords are 8 to 64 characters now; an account may still have an older, longer one. Logging
// in with such a password marks the account in this browser, and the console asks for a change
// until a new password is saved.
const key = (userId: number): string => `flotilla.passwordOverLimit.${userId}`;

export const passwordOverLimitMessage = `Password exceeds limit: your password is longer than ${passwordLength.max} characters. Please change it to one of ${passwordLength.min} to ${passwordLength.max} characters.`;

const listeners = new Set<() => void>();
const notify = (): void => {
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void): (() => void) => {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
};

// Storage may be unavailable (private mode): the prompt then lasts until the page is reloaded.
const unkept = new Set<number>();

export const passwordChanged = (userId: number): void => {
  unkept.delete(userId);
  try {
    window.localStorage.removeItem(key(userId));
  } catch {
    // Nothing stored, nothing to clear.
  }
  notify();
};

// A login with a password within the limit (say, after a reset elsewhere) ends the prompt.
export const notePasswordAtLogin = (userId: number, password: string): void => {
  if (password.length <= passwordLength.max) {
    passwordChanged(userId);
    return;
  }
  try {
    window.localStorage.setItem(key(userId), 'true');
  } catch {
    unkept.add(userId);
  }
  notify();
};

const mustChange = (userId: number): boolean => {
  if (unkept.has(userId)) return true;
  try {
    return window.localStorage.getItem(key(userId)) === 'true';
  } catch {
    return false;
  }
};

// Whether the signed-in user logged in with a password over the limit and has not changed it.
export const useMustChangePassword = (userId: number | undefined): boolean =>
  useSyncExternalStore(subscribe, () => userId !== undefined && mustChange(userId));
