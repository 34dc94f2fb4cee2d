import type { FlotillaClient } from '@flotilla/sdk/create-client';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { ClientProvider } from './client.js';
import { createConsoleRouter } from './router.js';
import { theme } from './theme.js';

export const createQueryClient = (): QueryClient =>
  new QueryClient({
    defaultOptions: {
      // The SDK already retries network failures (connectivity queue) and rate limits.
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });

export const App = ({ client }: { client: FlotillaClient }) => {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createConsoleRouter);
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
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <ClientProvider client={client}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </ClientProvider>
    </ThemeProvider>
  );
};
