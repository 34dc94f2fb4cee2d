import { errorText } from '@flotilla/sdk/errors';
import { roleLabel } from '@flotilla/shared/permissions/role-labels';
import { defaultApplicationMembershipRole } from '@flotilla/shared/permissions/roles';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useParams } from 'react-router';
import { useBreadcrumbs } from '../../ui/breadcrumbs.js';
import { RedirectWithMessage } from '../../ui/RedirectWithMessage.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { classLabels } from '../../fleet/class-names.js';
import { AccessTable } from './AccessTable.js';
import { useMemberCalls, useMemberDetail, useRefreshOrganization } from './api-members.js';
import { useRoleIds } from './api-organizations.js';
import { idParam } from './id-param.js';
import { runAll } from '../../ui/run-all.js';
import { SectionTabs, useSection } from './section-tabs.js';
import { useOrganizationFleets, useTeams } from './api-teams.js';
import { useOrganizationContext } from './useOrganizationContext.js';
import { useOrganizationWrite } from './api-members.js';
import { MemberTeamsTable } from './MemberTeamsTable.js';
import { AddMemberToDialog } from './AddMemberToDialog.js';
import { memberDetailRows } from './member-detail-rows.js';

// /orgs/:organizationId/members/:memberId[/teams|fleets|apps|blocks]: one member's role, teams
// and direct fleet memberships, managed by the organization's administrators.
export const MemberPage = () => {
  const { organization, access } = useOrganizationContext();
  const memberId = idParam(useParams().memberId);
  const calls = useMemberCalls();
  const roles = useRoleIds();
  const base = `/orgs/${organization.id}/members/${memberId ?? ''}`;
  const section = useSection(base, 'teams');
  const member = useMemberDetail(organization.id, memberId);
  const teams = useTeams(organization.id, { enabled: access.isAdministrator });
  const applications = useOrganizationFleets(organization.id, access.isAdministrator);
  const [adding, setAdding] = useState(false);
  const user = member.data?.user[0];
  usePageTitle(user?.username ?? 'Member');
  useBreadcrumbs([
    { label: organization.name, to: `/orgs/${organization.id}` },
    ...(user ? [{ label: user.username, to: base }] : []),
  ]);
  const refresh = useRefreshOrganization(organization.id);
  const write = useOrganizationWrite(organization.id);
  if (memberId === null) {
    return (
      <RedirectWithMessage
        to={`/orgs/${organization.id}/members`}
        message="invalid id passed in url"
      />
    );
  }
  if (member.isPending) return <Skeleton variant="rounded" height={240} aria-label="Loading" />;
  if (member.isError) {
    return <Alert severity="error">{errorText(member.error) ?? 'Could not load the member'}</Alert>;
  }
  if (member.data === null || !user) {
    return (
      <RedirectWithMessage to={`/orgs/${organization.id}/members`} message="Resource not found" />
    );
  }
  const admin = access.isAdministrator;
  const className = section === 'members' || section === 'teams' ? null : section;
  const { teamMemberships, fleetMemberships, joinedTeams, joinedFleets } = memberDetailRows(
    user,
    className,
  );
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography variant="h2">{user.username}</Typography>
        <Chip
          size="small"
          label={roleLabel(member.data.organization_membership_role[0]?.name ?? 'member')}
        />
        {user.owns__saml_account > 0 ? <Chip size="small" variant="outlined" label="SAML" /> : null}
      </Stack>
      <SectionTabs base={base} first="teams" value={section} />
      {write.isError ? (
        <Alert severity="error">{errorText(write.error) ?? 'Could not save'}</Alert>
      ) : null}
      {admin ? (
        <Stack direction="row">
          <Button variant="contained" onClick={() => setAdding(true)}>
            {className === null
              ? 'Add to team'
              : `Add to ${classLabels[className].one.toLowerCase()}`}
          </Button>
        </Stack>
      ) : null}
      {className === null ? (
        <MemberTeamsTable
          organizationId={organization.id}
          teams={teamMemberships}
          canManage={admin}
          busy={write.isPending}
          onRemove={(row) => write.mutate(() => calls.removeTeamMembership(row.id))}
        />
      ) : (
        <AccessTable
          className={className}
          rows={fleetMemberships}
          canManage={admin}
          busy={write.isPending}
          onChangeRole={(row, role) =>
            write.mutate(() => calls.setFleetRole(row.id, roles.data?.application.get(role) ?? 0))
          }
          onRemove={(row) => write.mutate(() => calls.removeFleetMembership(row.id))}
        />
      )}
      <AddMemberToDialog
        open={adding}
        username={user.username}
        className={className}
        teams={(teams.data ?? []).filter((team) => !joinedTeams.has(team.id))}
        fleets={(applications.data ?? []).filter(
          (application) =>
            application.is_of__class === className && !joinedFleets.has(application.id),
        )}
        onAddToTeams={(ids) =>
          runAll(ids, (teamId) => calls.addToTeam(user.username, teamId)).finally(refresh)
        }
        onAddToFleets={(ids, role) =>
          runAll(ids, (fleetId) =>
            calls.addToFleet(
              user.username,
              fleetId,
              roles.data?.application.get(role ?? defaultApplicationMembershipRole) ?? 0,
            ),
          ).finally(refresh)
        }
        onClose={() => setAdding(false)}
      />
    </Stack>
  );
};
