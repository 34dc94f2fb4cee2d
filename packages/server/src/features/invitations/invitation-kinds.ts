import type { InvitationKind } from '@flotilla/shared/invitations/invitation-token';

// The two invitation tables, described once for the hooks, the mail and the accept routes.
export type InvitationTable = {
  kind: InvitationKind;
  resource: 'invitee__is_invited_to__organization' | 'invitee__is_invited_to__application';
  // The invitation's target: column, table and the target's name column.
  targetColumn: 'is_invited_to__organization' | 'is_invited_to__application';
  targetTable: 'organization' | 'application';
  targetName: 'name' | 'app_name';
  roleColumn: 'organization_membership_role' | 'application_membership_role';
  // The role an invitation carries when the SDK sends none (balena-sdk leaves it out without a
  // roleName).
  defaultRole: string;
  // Console page accepting it.
  acceptPath: '/organization/invitation/' | '/invitation/';
  // How the target is named in messages.
  noun: 'organization' | 'fleet';
};

export const organizationInvitations: InvitationTable = {
  kind: 'organization',
  resource: 'invitee__is_invited_to__organization',
  targetColumn: 'is_invited_to__organization',
  targetTable: 'organization',
  targetName: 'name',
  roleColumn: 'organization_membership_role',
  defaultRole: 'member',
  acceptPath: '/organization/invitation/',
  noun: 'organization',
};

export const applicationInvitations: InvitationTable = {
  kind: 'application',
  resource: 'invitee__is_invited_to__application',
  targetColumn: 'is_invited_to__application',
  targetTable: 'application',
  targetName: 'app_name',
  roleColumn: 'application_membership_role',
  defaultRole: 'developer',
  acceptPath: '/invitation/',
  noun: 'fleet',
};

export const invitationTableOf = (kind: InvitationKind): InvitationTable =>
  kind === 'organization' ? organizationInvitations : applicationInvitations;
