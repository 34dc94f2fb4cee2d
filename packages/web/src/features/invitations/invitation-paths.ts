import type { InvitationKind } from '@flotilla/shared/invitations/invitation-token';

// Where each kind of invitation is accepted (the server's routes) and where its user lands.
export const invitationPaths: Record<
  InvitationKind,
  { acceptPath: string; landing: string; noun: string }
> = {
  organization: { acceptPath: '/org/v1/invitation', landing: '/orgs', noun: 'organization' },
  application: { acceptPath: '/user/v1/invitation', landing: '/fleets', noun: 'fleet' },
};
