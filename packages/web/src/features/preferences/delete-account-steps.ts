// The steps of an account deletion, in order, each pending, in progress, done or failed.
export type StepStatus = 'pending' | 'inprogress' | 'done' | 'failed';
export const deletionSteps = [
  'Verify your password',
  'Cancel subscriptions',
  'Delete the organizations you administer alone',
  'Delete your account',
] as const;

// Success is shown this long before the console logs out, so the user can read it.
export const logoutDelayMs = 2000;

// Deletion errors ask to contact support (the account may be half gone), unless they mention it already.
export const deletionErrorText = (message: string): string =>
  /support|sales/i.test(message) ? message : `${message} If it keeps failing, contact support.`;
