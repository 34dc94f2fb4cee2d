import { errorText } from '@flotilla/sdk/errors';
import { memberListPageSize, roleChangeConcurrency } from '@flotilla/shared/constants/limits';
import { organizationRoles } from '@flotilla/shared/permissions/roles';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useBreadcrumbs } from '../../ui/breadcrumbs.js';
import { useToasts } from '../../ui/toasts.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { runWithConcurrency } from '../../ui/run-with-concurrency.js';
import { useSession } from '../../api/session/useSession.js';
import { InvitationsTable } from './InvitationsTable.js';
import { InviteDialog } from './InviteDialog.js';
import { MembersTable, type MemberRow } from './MembersTable.js';
import {
  type MemberSort,
  useInvitations,
  useMemberCalls,
  useMemberPage,
  useRefreshOrganization,
  useRefreshOrganizations,
} from './api-members.js';
import { useRoleIds } from './api-organizations.js';
import { leaveReason } from './organization-rules.js';
import { useOrganizationContext } from './useOrganizationContext.js';

// /orgs/:organizationId/members: members (paged on the server), their roles and teams, removal
// and leaving; administrators also invite, change roles and revoke pending invitations.
export const MembersPage = () => {
  const { organization, access } = useOrganizationContext();
  usePageTitle(`Members of ${organization.name}`);
  useBreadcrumbs([{ label: organization.name, to: `/orgs/${organization.id}` }]);
  const calls = useMemberCalls();
  const refreshAll = useRefreshOrganizations();
  const toasts = useToasts();
  const navigate = useNavigate();
  const userId = useSession()?.userId ?? 0;
  const roles = useRoleIds();
  const [page, setPage] = useState(0);
  const [sort, setSort] = useState<MemberSort>('username asc');
  const [selected, setSelected] = useState<readonly number[]>([]);
  const [removing, setRemoving] = useState<readonly MemberRow[]>([]);
  const [inviting, setInviting] = useState(false);
  const members = useMemberPage(organization.id, page, sort);
  const invitations = useInvitations(
    organization.id,
    access.can('invitee__is_invited_to__organization', 'read'),
  );
  const refresh = useRefreshOrganization(organization.id);

  const rows: MemberRow[] = (members.data?.rows ?? []).flatMap((user) =>
    user.organization_membership.map((membership) => ({
      id: membership.id,
      userId: user.id,
      username: user.username,
      role: membership.organization_membership_role[0]?.name ?? 'member',
      teams: user.team_membership.flatMap((teamMembership) =>
        teamMembership.is_member_of__team.map((team) => ({ id: team.id, name: team.name })),
      ),
      saml: user.owns__saml_account > 0,
    })),
  );

  // Role changes run one at a time, in one mutation scope, so two changes cannot cross each other.
  const changeRole = useMutation({
    scope: { id: `organization-${organization.id}-roles` },
    mutationFn: async ({ ids, role }: { ids: readonly number[]; role: string }) => {
      const roleId = roles.data?.organization.get(role);
      if (roleId === undefined) throw new Error(`Role ${role} not found`);
      const outcomes = await runWithConcurrency(ids, roleChangeConcurrency, (id) =>
        calls.setOrganizationRole(id, roleId),
      );
      const failed = outcomes.find((outcome) => !outcome.ok);
      if (failed && !failed.ok) throw failed.error;
    },
    onSettled: refresh,
  });
  const remove = useMutation({
    meta: { inlineError: true },
    mutationFn: async (ids: readonly number[]) => {
      const outcomes = await runWithConcurrency(ids, 10, (id) => calls.removeMembership(id));
      const failed = outcomes.find((outcome) => !outcome.ok);
      if (failed && !failed.ok) throw failed.error;
    },
    onSuccess: async (_result, ids) => {
      const left = removing.some((row) => row.userId === userId && ids.includes(row.id));
      toasts.show('success', left ? 'You left the organization' : 'Member removed', {
        afterNavigation: left,
      });
      setRemoving([]);
      setSelected([]);
      await refreshAll();
      if (left) void navigate('/orgs');
    },
    onError: refresh,
  });
  const revoke = useMutation({
    mutationFn: (id: number) => calls.revokeInvitation(id),
    onSuccess: () => {
      toasts.show('success', 'Invitation revoked');
      return refresh();
    },
  });
  const invite = async (invitation: { invitee: string; role: string; message: string }) => {
    const roleId = roles.data?.organization.get(invitation.role);
    await calls.invite(organization.id, {
      invitee: invitation.invitee,
      roleId: roleId ?? 0,
      message: invitation.message === '' ? null : invitation.message,
    });
    toasts.show('success', `Invitation sent to ${invitation.invitee}`);
    await refresh();
  };

  const total = members.data?.count ?? 0;
  const ownLeaveReason = leaveReason(access.isAdministrator, access.administrators);
  return (
    <Stack spacing={3}>
      <Stack direction="row" sx={{ alignItems: 'center' }}>
        <Typography variant="h2" sx={{ flexGrow: 1 }}>
          Members
        </Typography>
        {access.can('invitee__is_invited_to__organization', 'create') ? (
          <Button
            variant="contained"
            startIcon={<PersonAddIcon />}
            onClick={() => setInviting(true)}
          >
            Invite member
          </Button>
        ) : null}
      </Stack>
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
      {access.can('invitee__is_invited_to__organization', 'read') ? (
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
      <ConfirmDialog
        open={removing.length > 0}
        title={
          removing.length === 1 && removing[0]?.userId === userId
            ? 'Leave the organization?'
            : removing.length === 1
              ? `Remove ${removing[0]?.username ?? ''}?`
              : `Remove ${removing.length} members?`
        }
        items={removing.map((row) => row.username)}
        confirmLabel={removing.length === 1 && removing[0]?.userId === userId ? 'Leave' : 'Remove'}
        destructive
        pending={remove.isPending}
        error={remove.isError ? (errorText(remove.error) ?? 'Could not remove them') : null}
        onConfirm={() => remove.mutate(removing.map((row) => row.id))}
        onClose={() => {
          remove.reset();
          setRemoving([]);
        }}
      >
        They lose access to the organization, its teams and its fleets.
      </ConfirmDialog>
    </Stack>
  );
};
