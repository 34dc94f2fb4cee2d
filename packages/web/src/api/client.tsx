import { createFlotillaClient, type FlotillaClient } from '@flotilla/sdk/create-client';
import { localStorageTokenStorage } from '@flotilla/sdk/token-storage';
import { createContext, type ReactNode, useContext } from 'react';

// The one SDK client of the running console (same origin as the API). Tests provide their own.
export const createConsoleClient = (): FlotillaClient =>
  createFlotillaClient({ apiUrl: '', storage: localStorageTokenStorage() });

const ClientContext = createContext<FlotillaClient | null>(null);

export const ClientProvider = ({
  client,
  children,
}: {
  client: FlotillaClient;
  children: ReactNode;
}) => <ClientContext.Provider value={client}>{children}</ClientContext.Provider>;

export const useClient = (): FlotillaClient => {
  const client = useContext(ClientContext);
  if (!client) throw new Error('useClient outside ClientProvider');
  return client;
};
