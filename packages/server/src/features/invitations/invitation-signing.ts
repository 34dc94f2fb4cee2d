import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  decodeInvitationToken,
  type InvitationClaims,
} from '@flotilla/shared/invitations/invitation-token';
import { badRequest } from '../../infra/errors/api-error.js';

// Invitation tokens: `base64url(claims JSON).base64url(HMAC-SHA256)`. The key is derived from the
// session signing secret under its own label, so an invitation token is never a session token
// (nor the reverse), and rotating FLOTILLA_JWT_SECRET invalidates both.
export type InvitationSigner = {
  sign(claims: InvitationClaims): string;
  // The claims of a token this server signed that has not expired; a 400 in our words otherwise.
  verify(token: string, now: Date): InvitationClaims;
};

const base64Url = (value: Buffer | string): string => Buffer.from(value).toString('base64url');

export const createInvitationSigner = (secret: Uint8Array): InvitationSigner => {
  const key = createHmac('sha256', secret).update('flotilla invitation token v1').digest();
  const signatureOf = (payload: string): Buffer =>
    createHmac('sha256', key).update(payload).digest();
  return {
    sign(claims) {
      const payload = base64Url(JSON.stringify(claims));
      return `${payload}.${base64Url(signatureOf(payload))}`;
    },
    verify(token, now) {
      const claims = decodeInvitationToken(token);
      const [payload = '', signature = ''] = token.split('.');
      const expected = signatureOf(payload);
      const given = Buffer.from(signature, 'base64url');
      if (
        claims === null ||
        given.length !== expected.length ||
        !timingSafeEqual(given, expected)
      ) {
        throw badRequest('This invitation link is not valid');
      }
      if (claims.exp * 1000 <= now.getTime()) {
        throw badRequest('This invitation has expired: ask for a new one');
      }
      return claims;
    },
  };
};
