import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { errorText } from '@flotilla/sdk/errors';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import {
  MutationCache,
  QueryClient,
  QueryClientProvider,
  useQueryClient,
} from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { type ToastKind, ToastProvider, useToasts, useToastsFollowPages } from '../ui/toasts.js';
import { BootGate } from './BootGate.js';
import { ClientProvider } from './client.js';
import { createConsoleRouter } from './router.js';
import { theme } from './theme.js';

// Mutations report failures as error toasts unless they show the error themselves
// (`meta: { inlineError: true }`).
export const createQueryClient = (
  notify: (kind: ToastKind, text: string | null) => void = () => undefined,
): QueryClient =>
  new QueryClient({
    defaultOptions: {
      // The SDK already retries network failures (connectivity queue) and rate limits.
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (mutation.meta?.inlineError === true) return;
        notify('error', errorText(error));
      },
    }),
  });

const DataProviders = ({ client, children }: { client: FlotillaClient; children: ReactNode }) => {
  const toasts = useToasts();
  const [queryClient] = useState(() => createQueryClient(toasts.show));
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

// The router starts matching (and loading the route's code and data) as soon as it exists, so
// it is created here, before the boot finishes; its loaders fill the same query cache.
const ConsoleRouter = ({ client }: { client: FlotillaClient }) => {
  const queryClient = useQueryClient();
  const [router] = useState(() => createConsoleRouter({ client, queryClient }));
  useToastsFollowPages(router);
  return (
    <BootGate>
      <RouterProvider router={router} />
    </BootGate>
  );
};

export const App = ({ client }: { client: FlotillaClient }) => {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <ClientProvider client={client}>
        <ToastProvider>
          <DataProviders client={client}>
            <ConsoleRouter client={client} />
          </DataProviders>
        </ToastProvider>
      </ClientProvider>
    </ThemeProvider>
  );
};
