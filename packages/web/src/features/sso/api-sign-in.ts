import { samlApi } from '@flotilla/sdk/saml';
import { useMutation } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { leaveConsole } from '../../ui/leave-console.js';

// SAML sign-in: start at the organization's identity provider (after checking the identifier
// exists), and finalize the code it comes back with.

export const useStartSaml = () => {
  const client = useClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: async (ssoIdentifier: string) => {
      const saml = samlApi(client);
      await saml.checkIdentifier(ssoIdentifier);
      leaveConsole(saml.startUrl(ssoIdentifier));
    },
  });
};

export const useFinalizeSaml = () => {
  const client = useClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: ({ code, merge }: { code: string; merge: boolean }) =>
      samlApi(client).finalize(code, merge),
  });
};

// What the provider's administrator enters at their identity provider: our metadata (entity id)
// and assertion consumer service addresses for this identifier.
export const useServiceProviderAddresses = (ssoIdentifier: string) => {
  const client = useClient();
  const start = samlApi(client).startUrl(ssoIdentifier);
  const absolute = start.startsWith('/') ? `${window.location.origin}${start}` : start;
  return { metadataUrl: `${absolute}/metadata`, acsUrl: `${absolute}/callback` };
};
