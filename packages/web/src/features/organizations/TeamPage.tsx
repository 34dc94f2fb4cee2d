import { errorText } from '@flotilla/sdk/errors';
import { defaultApplicationMembershipRole } from '@flotilla/shared/permissions/roles';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useParams } from 'react-router';
import { useBreadcrumbs } from '../../ui/breadcrumbs.js';
import { RedirectWithMessage } from '../../ui/RedirectWithMessage.js';
import { useToasts } from '../../ui/toasts.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useRefreshOrganization } from './api-members.js';
import { useRoleIds } from './api-organizations.js';
import { idParam } from './id-param.js';
import { PickListDialog } from '../../ui/PickListDialog.js';
import { runAll } from '../../ui/run-all.js';
import { SectionTabs, useSection } from './section-tabs.js';
import { TeamMembersTable } from './TeamMembersTable.js';
import {
  useOrganizationFleets,
  useOrganizationUsers,
  useTeamCalls,
  useTeamDetail,
} from './api-teams.js';
import { useOrganizationContext } from './useOrganizationContext.js';
import { useOrganizationWrite } from './api-members.js';
import { teamDetailRows } from './team-detail-rows.js';
import { TeamFleetsSection } from './TeamFleetsSection.js';

// /orgs/:organizationId/teams/:teamId[/members|fleets|apps|blocks]: a team's members and its
// access to fleets, apps and blocks.
export const TeamPage = () => {
  const { organization, access } = useOrganizationContext();
  const teamId = idParam(useParams().teamId);
  const calls = useTeamCalls();
  const toasts = useToasts();
  const roles = useRoleIds();
  const base = `/orgs/${organization.id}/teams/${teamId ?? ''}`;
  const section = useSection(base, 'members');
  const team = useTeamDetail(organization.id, teamId);
  const users = useOrganizationUsers(organization.id, access.isAdministrator);
  const applications = useOrganizationFleets(organization.id);
  const [adding, setAdding] = useState(false);
  usePageTitle(team.data?.name ?? 'Team');
  useBreadcrumbs([
    { label: organization.name, to: `/orgs/${organization.id}` },
    ...(team.data ? [{ label: team.data.name, to: base }] : []),
  ]);
  const refresh = useRefreshOrganization(organization.id);
  const write = useOrganizationWrite(organization.id);
  if (teamId === null) {
    return (
      <RedirectWithMessage
        to={`/orgs/${organization.id}/teams`}
        message="invalid id passed in url"
      />
    );
  }
  if (team.isPending) return <Skeleton variant="rounded" height={240} aria-label="Loading" />;
  if (team.isError) {
    return <Alert severity="error">{errorText(team.error) ?? 'Could not load the team'}</Alert>;
  }
  if (team.data === null) {
    return (
      <RedirectWithMessage to={`/orgs/${organization.id}/teams`} message="Resource not found" />
    );
  }
  const detail = team.data;
  const admin = access.can('team_membership', 'create');
  const className = section === 'members' || section === 'teams' ? null : section;
  const { members, accesses, memberIds, accessIds } = teamDetailRows(detail, className);
  const usernameOf = (userId: number) => users.data?.find((user) => user.id === userId)?.username;
  const addMembers = (ids: readonly number[]) =>
    runAll(ids, (userId) => calls.addMember(detail.id, usernameOf(userId) ?? '')).finally(refresh);
  const addFleets = (ids: readonly number[], role: string | undefined) =>
    runAll(ids, (fleetId) =>
      calls.grantFleet(
        detail.id,
        fleetId,
        roles.data?.application.get(role ?? defaultApplicationMembershipRole) ?? 0,
      ),
    ).finally(refresh);
  return (
    <Stack spacing={2}>
      <Typography variant="h2">{detail.name}</Typography>
      <SectionTabs base={base} first="members" value={section} />
      {write.isError ? (
        <Alert severity="error">{errorText(write.error) ?? 'Could not save'}</Alert>
      ) : null}
      {className === null ? (
        <>
          {admin ? (
            <Stack direction="row">
              <Button variant="contained" onClick={() => setAdding(true)}>
                Add member to team
              </Button>
            </Stack>
          ) : null}
          <TeamMembersTable
            organizationId={organization.id}
            members={members}
            canManage={admin}
            busy={write.isPending}
            onRemove={(ids) =>
              write.mutate(async () => {
                await calls.removeMembers(ids);
                toasts.show(
                  'success',
                  ids.length === 1 ? 'Member removed' : `${ids.length} members removed`,
                );
              })
            }
          />
          <PickListDialog
            open={adding}
            title="Add member to team"
            items={(users.data ?? [])
              .filter((user) => !memberIds.has(user.id))
              .map((user) => ({ id: user.id, label: user.username }))}
            emptyText="Every member of the organization is in this team."
            submitLabel="Add"
            onSubmit={addMembers}
            onClose={() => setAdding(false)}
          />
        </>
      ) : (
        <TeamFleetsSection
          className={className}
          accesses={accesses}
          fleets={(applications.data ?? []).filter(
            (application) =>
              application.is_of__class === className && !accessIds.has(application.id),
          )}
          canManage={admin}
          busy={write.isPending}
          adding={adding}
          onAdding={setAdding}
          onAdd={addFleets}
          onChangeRole={(row, role) =>
            write.mutate(() => calls.setAccessRole(row.id, roles.data?.application.get(role) ?? 0))
          }
          onRemove={(row) => write.mutate(() => calls.revokeFleet(detail.id, row.fleetId))}
        />
      )}
    </Stack>
  );
};
