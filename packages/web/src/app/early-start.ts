import './no-eval.js';
import { bootQuery } from '../api/session/api-boot.js';
import { createConsoleClient } from '../api/client.js';
import { createNotifyRelay, createQueryClient } from './query-client.js';
import { startLandingQueries } from './route-prefetch.js';

// The console's first work. main.tsx imports this module before anything else, so it runs before
// React DOM and the app's screens are evaluated (about 400 kB of the entry's script): on a cold
// load the landing screen's API calls are answered while that code still runs, instead of
// starting only when the router exists. Its imports must stay light (no React DOM, no MUI, no
// React Router): `early-start.test.ts` checks main.tsx's import order.
// A mark the bench's cold-load breakdown reads: when the entry's code began to run.
performance.mark('flotilla:early-start');

export const consoleClient = createConsoleClient();
export const toastRelay = createNotifyRelay();
export const consoleQueryClient = createQueryClient(toastRelay.notify);

// The boot's configuration and whoami (BootGate waits for them), then the landing screen's data.
void consoleQueryClient.prefetchQuery(bootQuery(consoleClient));
startLandingQueries(window.location.pathname, {
  client: consoleClient,
  queryClient: consoleQueryClient,
});
