import { memberListPageSize } from '@flotilla/shared/constants/limits';
import {
  applicationMembershipRoles,
  defaultApplicationMembershipRole,
} from '@flotilla/shared/permissions/roles';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useToasts } from '../../ui/toasts.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useFleetContext } from '../../fleet/useFleetContext.js';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { InvitationsTable } from '../organizations/InvitationsTable.js';
import { InviteDialog } from '../organizations/InviteDialog.js';
import {
  type FleetMemberSort,
  useAddFleetMember,
  useFleetAccessCalls,
  useFleetAccessWrite,
  useFleetRoleId,
  useFleetInvitations,
  useFleetMemberPage,
} from './api.js';
import { type FleetMemberRow, FleetMembersTable } from './FleetMembersTable.js';
import { UnauthorisedNotice } from './UnauthorisedNotice.js';
import { ListLoadState } from '../../ui/entity-list/ListLoadState.js';
import { FleetAccessHeader } from './FleetAccessHeader.js';
import { RemoveAccess } from './RemoveAccess.js';

// /{class}s/:fleetId/members: members with their role, added by username (a membership) or
// e-mail (an invitation), pending invitations with revoke, and "remove my access" for a member
// with a direct role (the one place every member may leave from: settings need application.update).
export const FleetMembersPage = () => {
  const { fleet } = useFleetContext();
  usePageTitle(`Members of ${fleet.app_name}`);
  const calls = useFleetAccessCalls();
  const toasts = useToasts();
  const access = useFleetRole(fleet.id);
  const organizationId = fleet.organization[0]?.id ?? 0;
  const [page, setPage] = useState(0);
  const [sort, setSort] = useState<FleetMemberSort>({ by: 'username', direction: 'asc' });
  const [adding, setAdding] = useState(false);
  const canRead = access.can('user_application_membership', 'read');
  const members = useFleetMemberPage(fleet.id, organizationId, page, sort, canRead);
  const canSeeInvitations = access.can('invitee__is_invited_to__application', 'read');
  const invitations = useFleetInvitations(fleet.id, canSeeInvitations);
  const write = useFleetAccessWrite(fleet.id);
  const roleId = useFleetRoleId();
  const add = useAddFleetMember(fleet.id);

  const leave =
    access.directMembershipId === null ? null : (
      <Paper variant="outlined" sx={{ px: 2 }}>
        <RemoveAccess fleet={fleet} access={access} />
      </Paper>
    );
  if (access.isPending) return <Skeleton variant="rounded" height={200} aria-label="Loading" />;
  if (!canRead) {
    return (
      <Stack spacing={3}>
        <UnauthorisedNotice what="members" className={fleet.is_of__class} />
        {leave}
      </Stack>
    );
  }
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
      <FleetAccessHeader
        title="Members"
        addLabel="Add member"
        addIcon={<PersonAddIcon />}
        addDenied={addDenied}
        onAdd={() => setAdding(true)}
        writeError={write.isError ? write.error : null}
      />
      <ListLoadState
        query={members}
        failure="Could not load the members"
        retry
        empty={null}
        skeletonHeight={200}
      >
        <FleetMembersTable
          className={fleet.is_of__class}
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
      {leave}
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
