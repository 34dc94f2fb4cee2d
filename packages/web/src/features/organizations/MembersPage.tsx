import { errorText } from '@flotilla/sdk/errors';
import { memberListPageSize } from '@flotilla/shared/constants/limits';
import { organizationRoles } from '@flotilla/shared/permissions/roles';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useBreadcrumbs } from '../../ui/breadcrumbs.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useSession } from '../../api/session/useSession.js';
import { InvitationsTable } from './InvitationsTable.js';
import { InviteDialog } from './InviteDialog.js';
import { MembersTable, type MemberRow } from './MembersTable.js';
import {
  type MemberSort,
  useInvitations,
  useChangeMemberRoles,
  useInviteMember,
  useMemberPage,
  useRemoveMembers,
  useRevokeInvitation,
} from './api-members.js';
import { leaveReason } from './organization-rules.js';
import { useOrganizationContext } from './useOrganizationContext.js';
import { RemoveMembersDialog } from './RemoveMembersDialog.js';
import { memberRowsOf } from './MembersTable.js';
import { ListToolbar } from '../../ui/entity-list/ListToolbar.js';

// /orgs/:organizationId/members: members (paged on the server), their roles and teams, removal
// and leaving; administrators also invite, change roles and revoke pending invitations.
export const MembersPage = () => {
  const { organization, access } = useOrganizationContext();
  usePageTitle(`Members of ${organization.name}`);
  useBreadcrumbs([{ label: organization.name, to: `/orgs/${organization.id}` }]);
  const userId = useSession()?.userId ?? 0;
  const [page, setPage] = useState(0);
  const [sort, setSort] = useState<MemberSort>('username asc');
  const [selected, setSelected] = useState<readonly number[]>([]);
  const [removing, setRemoving] = useState<readonly MemberRow[]>([]);
  const [inviting, setInviting] = useState(false);
  const members = useMemberPage(organization.id, page, sort);
  const seesInvitations = access.can('invitee__is_invited_to__organization', 'read');
  const invitations = useInvitations(organization.id, seesInvitations);
  const rows = memberRowsOf(members.data?.rows ?? []);
  const changeRole = useChangeMemberRoles(organization.id);
  const remove = useRemoveMembers(organization.id, {
    leaves: (ids) => removing.some((row) => row.userId === userId && ids.includes(row.id)),
    onRemoved: () => {
      setRemoving([]);
      setSelected([]);
    },
  });
  const revoke = useRevokeInvitation(organization.id);
  const invite = useInviteMember(organization.id);
  const total = members.data?.count ?? 0;
  const ownLeaveReason = leaveReason(access.isAdministrator, access.administrators);
  return (
    <Stack spacing={3}>
      <ListToolbar
        actions={
          access.can('invitee__is_invited_to__organization', 'create') ? (
            <Button
              variant="contained"
              startIcon={<PersonAddIcon />}
              onClick={() => setInviting(true)}
            >
              Invite member
            </Button>
          ) : null
        }
      >
        <Typography variant="h2">Members</Typography>
      </ListToolbar>
      {members.isPending ? (
        <Box aria-busy="true" aria-label="Loading">
          <Skeleton variant="rounded" height={200} />
        </Box>
      ) : members.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void members.refetch()}>
              Retry
            </Button>
          }
        >
          {errorText(members.error) ?? 'Could not load the members'}
        </Alert>
      ) : (
        <MembersTable
          organizationId={organization.id}
          rows={rows}
          total={total}
          page={page}
          pageSize={memberListPageSize}
          sort={sort}
          ownUserId={userId}
          isAdministrator={access.isAdministrator}
          ownLeaveReason={ownLeaveReason}
          roles={organizationRoles}
          selected={selected}
          busy={changeRole.isPending || remove.isPending}
          onPage={setPage}
          onSort={setSort}
          onSelect={setSelected}
          onChangeRole={(ids, role) => changeRole.mutate({ ids, role })}
          onRemove={(targets) => setRemoving(targets)}
        />
      )}
      {seesInvitations ? (
        <InvitationsTable
          invitations={(invitations.data ?? []).map((row) => ({
            id: row.id,
            invitee: row.invitee[0]?.email ?? '',
            role: row.organization_membership_role[0]?.name ?? 'member',
            message: row.message,
          }))}
          canRevoke
          revoking={revoke.isPending}
          onRevoke={(id) => revoke.mutate(id)}
        />
      ) : null}
      <InviteDialog
        open={inviting}
        title="Invite member"
        roles={organizationRoles}
        defaultRole="member"
        submitLabel="Send invitation"
        onSubmit={invite}
        onClose={() => setInviting(false)}
      />
      <RemoveMembersDialog
        members={removing}
        ownUserId={userId}
        pending={remove.isPending}
        error={remove.isError ? (errorText(remove.error) ?? 'Could not remove them') : null}
        onConfirm={() => remove.mutate(removing.map((row) => row.id))}
        onClose={() => {
          remove.reset();
          setRemoving([]);
        }}
      />
    </Stack>
  );
};
