import type { FlotillaClient } from '@flotilla/sdk/create-client';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { type QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { ToastProvider, useToasts, useToastsFollowPages } from '../ui/toasts.js';
import { BootGate } from './BootGate.js';
import { ClientProvider, useClient } from '../api/client.js';
import type { NotifyRelay } from './query-client.js';
import { createConsoleRouter } from './router.js';
import { useFirstScreenShown } from './first-screen.js';
import { startLiveUpdates } from '../api/event-stream/start-live-updates.js';
import { theme } from '../ui/theme.js';
import { useFeatureFlagProvider } from '../features/feature-flags/api-start.js';
import { useErrorReporting } from '../features/error-reports/api-reporter.js';
import { useUsageCounting } from '../features/analytics/api-start.js';

type DataProps = { client: FlotillaClient; queryClient: QueryClient; toastRelay: NotifyRelay };

// The query cache is created before React (early-start.ts); its error notices reach the toasts
// through the relay once they exist.
const DataProviders = ({
  client,
  queryClient,
  toastRelay,
  children,
}: DataProps & { children: ReactNode }) => {
  const toasts = useToasts();
  // Error reporting from the start; the other services start after the first screen.
  useErrorReporting();
  useEffect(() => toastRelay.connect(toasts.show), [toastRelay, toasts.show]);
  useEffect(() => {
    const stopWatch = client.auth.startTokenWatch();
    const stopConnectivity = client.connectivity.start();
    // Logging out clears every cached answer of the previous user.
    const unsubscribe = client.auth.subscribe((session) => {
      if (!session) queryClient.clear();
    });
    return () => {
      stopWatch();
      stopConnectivity();
      unsubscribe();
    };
  }, [client, queryClient]);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
};

type ConsoleRouterInstance = ReturnType<typeof createConsoleRouter>;

// The product's own services that no first screen needs: feature flags (OpenFeature), usage
// counting and the live event stream. Mounted once the first screen's data has arrived
// (first-screen.ts), so on a cold load their code, requests and work come after it.
const BackgroundServices = ({ router }: { router: ConsoleRouterInstance }) => {
  const client = useClient();
  const queryClient = useQueryClient();
  useFeatureFlagProvider();
  useUsageCounting(router);
  useEffect(() => startLiveUpdates(client, queryClient), [client, queryClient]);
  return null;
};

// The router starts matching (and loading the route's code and data) as soon as it exists, so
// it is created here, before the boot finishes; its loaders fill the same query cache.
const ConsoleRouter = ({ client }: { client: FlotillaClient }) => {
  const queryClient = useQueryClient();
  const [router] = useState(() => createConsoleRouter({ client, queryClient }));
  useToastsFollowPages(router);
  const firstScreenShown = useFirstScreenShown(queryClient);
  return (
    <>
      {firstScreenShown ? <BackgroundServices router={router} /> : null}
      <BootGate>
        <RouterProvider router={router} />
      </BootGate>
    </>
  );
};

export const App = ({ client, queryClient, toastRelay }: DataProps) => {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <ClientProvider client={client}>
        <ToastProvider>
          <DataProviders client={client} queryClient={queryClient} toastRelay={toastRelay}>
            <ConsoleRouter client={client} />
          </DataProviders>
        </ToastProvider>
      </ClientProvider>
    </ThemeProvider>
  );
};
