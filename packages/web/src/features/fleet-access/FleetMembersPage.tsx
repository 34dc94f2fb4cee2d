import { errorText } from '@flotilla/sdk/errors';
import { memberListPageSize } from '@flotilla/shared/constants/limits';
import {
  applicationMembershipRoles,
  defaultApplicationMembershipRole,
} from '@flotilla/shared/permissions/roles';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useToasts } from '../../ui/toasts.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { useFleetContext } from '../../fleet/useFleetContext.js';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { InvitationsTable } from '../organizations/InvitationsTable.js';
import { type Invitation, InviteDialog, inviteeKind } from '../organizations/InviteDialog.js';
import { useRoleIds } from '../organizations/api-organizations.js';
import {
  type FleetMemberSort,
  useFleetAccessCalls,
  useFleetInvitations,
  useFleetMemberPage,
  useRefreshFleet,
} from './api.js';
import { type FleetMemberRow, FleetMembersTable } from './FleetMembersTable.js';
import { UnauthorisedNotice } from './UnauthorisedNotice.js';
import { ListLoadState } from '../../ui/entity-list/ListLoadState.js';

// /{class}s/:applicationId/members: members with their role, added by username (a membership) or e-mail (an invitation), pending
// invitations with revoke.
export const FleetMembersPage = () => {
  const { application } = useFleetContext();
  usePageTitle(`Members of ${application.app_name}`);
  const calls = useFleetAccessCalls();
  const toasts = useToasts();
  const access = useFleetRole(application.id);
  const roles = useRoleIds();
  const organizationId = application.organization[0]?.id ?? 0;
  const [page, setPage] = useState(0);
  const [sort, setSort] = useState<FleetMemberSort>({ by: 'username', direction: 'asc' });
  const [adding, setAdding] = useState(false);
  const canRead = access.can('user_application_membership', 'read');
  const members = useFleetMemberPage(application.id, organizationId, page, sort, canRead);
  const canSeeInvitations = access.can('invitee__is_invited_to__application', 'read');
  const invitations = useFleetInvitations(application.id, canSeeInvitations);
  const refresh = useRefreshFleet(application.id);
  const write = useMutation({
    mutationFn: (work: () => Promise<unknown>) => work(),
    onSettled: refresh,
    // The page shows the failure above its tables; no toast as well.
    meta: { inlineError: true },
  });
  const roleId = (role: string): number => {
    const id = roles.data?.application.get(role);
    if (id === undefined) throw new Error(`Role ${role} not found`);
    return id;
  };
  const add = async ({ invitee, role, message }: Invitation) => {
    const trimmed = invitee.trim();
    if (inviteeKind(trimmed) === 'email') {
      await calls.invite(application.id, trimmed, roleId(role), message === '' ? null : message);
      toasts.show('success', `Invitation sent to ${trimmed}`);
    } else {
      await calls.addMember(application.id, trimmed, roleId(role));
      toasts.show('success', `${trimmed} added`);
    }
    await refresh();
  };

  if (access.isPending) return <Skeleton variant="rounded" height={200} aria-label="Loading" />;
  if (!canRead) return <UnauthorisedNotice what="members" className={application.is_of__class} />;
  const rows: FleetMemberRow[] = (members.data?.rows ?? []).flatMap((user) =>
    user.user_application_membership.map((membership) => ({
      id: membership.id,
      username: user.username,
      role: membership.application_membership_role[0]?.name ?? 'observer',
      organizationMembershipId: user.organization_membership[0]?.id ?? null,
      saml: user.owns__saml_account > 0,
    })),
  );
  const addDenied = access.denied('user_application_membership', 'create');
  return (
    <Stack spacing={3}>
      <Stack direction="row" sx={{ alignItems: 'center' }}>
        <Typography variant="h2" sx={{ flexGrow: 1 }}>
          Members
        </Typography>
        <DisabledReason reason={addDenied}>
          <Button
            variant="contained"
            startIcon={<PersonAddIcon />}
            disabled={addDenied !== null}
            onClick={() => setAdding(true)}
          >
            Add member
          </Button>
        </DisabledReason>
      </Stack>
      {write.isError ? (
        <Alert severity="error">{errorText(write.error) ?? 'Could not save'}</Alert>
      ) : null}
      <ListLoadState
        query={members}
        failure="Could not load the members"
        retry
        empty={null}
        skeletonHeight={200}
      >
        <FleetMembersTable
          className={application.is_of__class}
          organizationId={organizationId}
          rows={rows}
          total={members.data?.count ?? 0}
          page={page}
          pageSize={memberListPageSize}
          sort={sort}
          changeRoleDenied={access.denied('user_application_membership', 'update')}
          removeDenied={access.denied('user_application_membership', 'delete')}
          busy={write.isPending}
          onPage={setPage}
          onSort={setSort}
          onChangeRole={(row, role) =>
            write.mutate(() => calls.setMemberRole(row.id, roleId(role)))
          }
          onRemove={(row) =>
            write.mutate(async () => {
              await calls.removeMember(row.id);
              toasts.show('success', `${row.username} removed`);
            })
          }
        />
      </ListLoadState>
      {canSeeInvitations ? (
        <InvitationsTable
          invitations={(invitations.data ?? []).map((row) => ({
            id: row.id,
            invitee: row.invitee[0]?.email ?? '',
            role: row.application_membership_role[0]?.name ?? 'observer',
            message: row.message,
          }))}
          canRevoke={access.can('invitee__is_invited_to__application', 'delete')}
          revoking={write.isPending}
          onRevoke={(id) =>
            write.mutate(async () => {
              await calls.revokeInvitation(id);
              toasts.show('success', 'Invitation revoked');
            })
          }
        />
      ) : null}
      <InviteDialog
        open={adding}
        title="Add member"
        roles={applicationMembershipRoles}
        defaultRole={defaultApplicationMembershipRole}
        submitLabel="Add"
        help="A username adds the account at once; an e-mail address sends an invitation."
        onSubmit={add}
        onClose={() => setAdding(false)}
      />
    </Stack>
  );
};
