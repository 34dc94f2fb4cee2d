import type { FlotillaClient } from './create-client.js';
import type { Session } from './session-token.js';

const tokenOf = (body: unknown): string => {
  if (typeof body !== 'string' || body.trim() === '') {
    throw new Error('The server answered without a session token');
  }
  return body.trim();
};

// SAML sign-in: where the browser goes to start it, and the one-time code the server hands back
// turned into a session.
export const samlApi = (client: Pick<FlotillaClient, 'apiUrl' | 'request' | 'auth'>) => ({
  // The address that redirects the browser to the organization's identity provider.
  startUrl: (ssoIdentifier: string): string =>
    `${client.apiUrl}/auth/saml/${encodeURIComponent(ssoIdentifier)}`,

  // Whether a provider has this identifier (its service provider metadata exists); an unknown
  // one answers 404, which rejects.
  checkIdentifier: async (ssoIdentifier: string): Promise<void> => {
    await client.request<unknown>({
      path: `/auth/saml/${encodeURIComponent(ssoIdentifier)}/metadata`,
      auth: false,
    });
  },

  // A sign-in code (no session needed), or a merge code with the signed-in user's session.
  finalize: async (code: string, merge = false): Promise<Session> =>
    client.auth.loginWithToken(
      tokenOf(
        await client.request<unknown>({
          method: 'POST',
          path: '/auth/saml/finalize',
          body: { code },
          auth: merge,
        }),
      ),
    ),
});
