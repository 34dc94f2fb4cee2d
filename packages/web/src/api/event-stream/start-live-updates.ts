import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { QueryClient } from '@tanstack/react-query';
import { liveUpdatesConnected } from '../../ui/live-updates.js';

type Handle = { stop(): void };

// Keeps the signed-in user's live event stream open (a lazily loaded chunk, so the initial
// JavaScript does not grow): started at sign-in, restarted for another user or after the
// server refused it (a new token), stopped at sign-out.
export const startLiveUpdates = (client: FlotillaClient, queryClient: QueryClient) => {
  let handle: Handle | undefined;
  let userId: number | undefined;
  let disposed = false;
  let generation = 0;

  const stop = (): void => {
    generation += 1;
    handle?.stop();
    handle = undefined;
  };
  const sync = (): void => {
    const session = client.auth.getToken() === null ? null : client.auth.session();
    if (session === null || session.twoFactorRequired === true) {
      userId = undefined;
      return stop();
    }
    // A refreshed token of the same user keeps a connected stream.
    if (handle && userId === session.userId && liveUpdatesConnected()) return;
    stop();
    userId = session.userId;
    const started = generation;
    void import('./console-event-stream.js').then(
      ({ startConsoleEventStream }) => {
        if (disposed || started !== generation) return;
        handle = startConsoleEventStream(client, queryClient);
      },
      // Not loaded (offline, an upgrade): the screens keep polling.
      () => undefined,
    );
  };

  sync();
  const unsubscribe = client.auth.subscribe(() => sync());
  return () => {
    disposed = true;
    unsubscribe();
    stop();
  };
};
