import { isFreshAuthenticationRequired } from '@flotilla/shared/auth/reauthentication';
import { errorText } from '@flotilla/sdk/errors';
import { type ReactNode, useCallback, useRef, useState } from 'react';
import { ReauthenticationDialog } from './ReauthenticationDialog.js';

type Waiting = { confirmed: () => void; cancelled: () => void };

export type FreshAuthentication = {
  // Runs the action; when the server asks for a fresh authentication, asks for the password
  // (the dialog) and runs it once more. Cancelling fails with the server's refusal.
  run<T>(action: () => Promise<T>): Promise<T>;
  // The password dialog, to render with the screen.
  dialog: ReactNode;
};

// After the re-authentication window, creating an API key or setting up
// two-factor needs the identity confirmed again; the refusal opens the dialog, then the action is
// retried.
export const useFreshAuthentication = (): FreshAuthentication => {
  const [open, setOpen] = useState(false);
  const waiting = useRef<Waiting | null>(null);
  const run = useCallback(async <T,>(action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (error) {
      if (!isFreshAuthenticationRequired(errorText(error) ?? undefined)) throw error;
      await new Promise<void>((resolve, reject) => {
        waiting.current = { confirmed: resolve, cancelled: () => reject(error) };
        setOpen(true);
      });
      return action();
    }
  }, []);
  const settle = (outcome: 'confirmed' | 'cancelled'): void => {
    const current = waiting.current;
    waiting.current = null;
    setOpen(false);
    current?.[outcome]();
  };
  return {
    run,
    dialog: (
      <ReauthenticationDialog
        open={open}
        onConfirmed={() => settle('confirmed')}
        onCancel={() => settle('cancelled')}
      />
    ),
  };
};
