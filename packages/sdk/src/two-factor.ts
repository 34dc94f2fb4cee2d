import type { FlotillaClient } from './create-client.js';
import type { Session } from './session-token.js';

const tokenOf = (body: unknown): string => {
  if (typeof body !== 'string' || body.trim() === '') {
    throw new Error('The server answered without a session token');
  }
  return body.trim();
};

// Two-factor authentication of the signed-in user. Every call that
// answers a token adopts it: the session's second factor is then passed (or gone).
export const twoFactorApi = (client: Pick<FlotillaClient, 'request' | 'auth'>) => ({
  // A new secret (base32) for an authenticator app; enabling waits for its first code.
  setupKey: async (): Promise<string> =>
    tokenOf(await client.request<unknown>({ path: '/auth/totp/setup' })),

  // Enables two-factor with the first code of a new secret, or passes a login's challenge.
  verify: async (code: string): Promise<Session> =>
    client.auth.loginWithToken(
      tokenOf(
        await client.request<unknown>({
          method: 'POST',
          path: '/auth/totp/verify',
          body: { code },
        }),
      ),
    ),

  // Passes a login's challenge with a single-use recovery code.
  recover: async (code: string): Promise<Session> =>
    client.auth.loginWithToken(
      tokenOf(
        await client.request<unknown>({
          method: 'POST',
          path: '/auth/v1/2fa-recover/verify',
          body: { code },
        }),
      ),
    ),

  // New recovery codes, replacing the earlier ones (shown once).
  createRecoveryCodes: async (): Promise<string[]> => {
    const codes = await client.request<unknown>({
      method: 'POST',
      path: '/auth/v1/2fa-recover/create',
    });
    if (!Array.isArray(codes) || !codes.every((code) => typeof code === 'string')) {
      throw new Error('The server answered no recovery codes');
    }
    return codes;
  },

  disable: async (password: string): Promise<Session> =>
    client.auth.loginWithToken(
      tokenOf(
        await client.request<unknown>({
          method: 'POST',
          path: '/auth/totp/disable',
          body: { password },
        }),
      ),
    ),
});

export type TwoFactorApi = ReturnType<typeof twoFactorApi>;
