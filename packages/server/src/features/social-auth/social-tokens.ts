import { createHmac } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { socialFlowMinutes, socialProviders } from '@flotilla/shared/social-auth/social-providers';

// Two short-lived signed notes, keyed by the session secret under their own labels (so neither
// is ever a session token, and rotating FLOTILLA_JWT_SECRET voids both):
// - the flow: what a started sign-in keeps for its answer (state, PKCE verifier, nonce, and the
//   signed-in user when linking from Preferences or re-authenticating), in an HttpOnly cookie of
//   the browser that started it, so an answer reaching another browser is refused;
// - the pending link: which provider account waits to be linked to which existing account,
//   until that account proves itself.
const flowClaims = z.object({
  provider: z.enum(socialProviders),
  state: z.string().min(1),
  verifier: z.string().min(1),
  nonce: z.string().min(1).optional(),
  redirectUri: z.string().min(1),
  linkUserId: z.number().int().optional(),
  // The signed-in user confirming their identity (re-authentication) through the linked account.
  reauthUserId: z.number().int().optional(),
});
export type FlowClaims = z.infer<typeof flowClaims>;

const linkClaims = z.object({
  provider: z.enum(socialProviders),
  remoteId: z.string().min(1),
  displayName: z.string(),
  userId: z.number().int(),
});
export type LinkClaims = z.infer<typeof linkClaims>;

export type SocialTokens = {
  signFlow(claims: FlowClaims): Promise<string>;
  verifyFlow(token: string): Promise<FlowClaims | undefined>;
  signLink(claims: LinkClaims): Promise<string>;
  verifyLink(token: string): Promise<LinkClaims | undefined>;
};

export const createSocialTokens = (secret: Uint8Array, now: () => Date): SocialTokens => {
  const keyOf = (label: string) => createHmac('sha256', secret).update(label).digest();
  const flowKey = keyOf('flotilla social sign-in flow v1');
  const linkKey = keyOf('flotilla social pending link v1');
  const sign = (claims: Record<string, unknown>, key: Uint8Array): Promise<string> => {
    const issuedAt = Math.floor(now().getTime() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + socialFlowMinutes * 60)
      .sign(key);
  };
  const verify = async <T>(
    token: string,
    key: Uint8Array,
    schema: z.ZodType<T>,
  ): Promise<T | undefined> => {
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: ['HS256'],
        currentDate: now(),
      });
      const parsed = schema.safeParse(payload);
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    signFlow: (claims) => sign(claims, flowKey),
    verifyFlow: (token) => verify(token, flowKey, flowClaims),
    signLink: (claims) => sign(claims, linkKey),
    verifyLink: (token) => verify(token, linkKey, linkClaims),
  };
};
