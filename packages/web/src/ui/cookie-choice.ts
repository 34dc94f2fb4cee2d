// The user's answer to the cookie banner, kept in this browser. analytics is null when no
// analytics was offered (essential storage only).
export type CookieChoice = { essentials: true; analytics: boolean | null };

export const cookieChoiceKey = 'flotilla.cookies';

export const readCookieChoice = (): CookieChoice | null => {
  try {
    const raw = window.localStorage.getItem(cookieChoiceKey);
    const value: unknown = raw ? JSON.parse(raw) : null;
    if (typeof value !== 'object' || value === null) return null;
    const analytics = 'analytics' in value ? value.analytics : undefined;
    return typeof analytics === 'boolean' || analytics === null
      ? { essentials: true, analytics }
      : null;
  } catch {
    return null;
  }
};

export const writeCookieChoice = (choice: CookieChoice): void => {
  window.localStorage.setItem(cookieChoiceKey, JSON.stringify(choice));
};
