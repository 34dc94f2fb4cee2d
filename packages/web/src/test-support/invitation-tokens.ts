import type { InvitationClaims } from '@flotilla/shared/invitations/invitation-token';

const base64url = (value: object): string =>
  btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

// An invitation token as the console reads it (claims only; the server checks the signature).
export const invitationToken = (claims: Partial<InvitationClaims> = {}): string =>
  `${base64url({
    kind: 'organization',
    tokenId: 'abc',
    name: 'Acme',
    email: 'bob@example.com',
    // Far in the future: the page compares it with the real clock.
    exp: 4_102_444_800,
    ...claims,
  })}.signature`;
