import { errorText } from '@flotilla/sdk/errors';
import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useBreadcrumbs } from '../../ui/breadcrumbs.js';
import { useToasts } from '../../ui/toasts.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { useRefreshOrganization } from './api-members.js';
import { useTeamCalls, useTeams } from './api-teams.js';
import { useOrganizationContext } from './useOrganizationContext.js';
import { TeamNameDialog } from './TeamNameDialog.js';
import { TeamsTable } from './TeamsTable.js';
import { ListLoadState } from '../../ui/entity-list/ListLoadState.js';
import { ListToolbar } from '../../ui/entity-list/ListToolbar.js';

// /orgs/:organizationId/teams: list, create, rename and delete teams.
export const TeamsPage = () => {
  const { organization, access } = useOrganizationContext();
  usePageTitle(`Teams of ${organization.name}`);
  useBreadcrumbs([{ label: organization.name, to: `/orgs/${organization.id}` }]);
  const calls = useTeamCalls();
  const toasts = useToasts();
  const teams = useTeams(organization.id, { poll: true });
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<{ id: number; name: string } | null>(null);
  const [deleting, setDeleting] = useState<{ id: number; name: string } | null>(null);
  const refresh = useRefreshOrganization(organization.id);
  const remove = useMutation({
    meta: { inlineError: true },
    mutationFn: (id: number) => calls.deleteTeam(id),
    onSuccess: async () => {
      toasts.show('success', 'Team deleted');
      setDeleting(null);
      await refresh();
    },
  });
  const names = (teams.data ?? []).map((team) => team.name);
  const admin = access.can('team', 'create');
  return (
    <Stack spacing={3}>
      <ListToolbar
        actions={
          admin ? (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)}>
              Create team
            </Button>
          ) : null
        }
      >
        <Typography variant="h2">Teams</Typography>
      </ListToolbar>
      <ListLoadState
        query={teams}
        failure="Could not load the teams"
        empty={
          teams.data?.length === 0
            ? 'No teams yet. Teams give their members a role on fleets together.'
            : null
        }
      >
        <TeamsTable
          organizationId={organization.id}
          teams={teams.data ?? []}
          manage={admin}
          onRename={setRenaming}
          onDelete={setDeleting}
        />
      </ListLoadState>
      <TeamNameDialog
        open={creating}
        title="Create team"
        initial=""
        takenNames={names}
        submitLabel="Create"
        onSubmit={async (name) => {
          await calls.createTeam(organization.id, name);
          await refresh();
        }}
        onClose={() => setCreating(false)}
      />
      {renaming ? (
        <TeamNameDialog
          open
          title={`Rename ${renaming.name}`}
          initial={renaming.name}
          takenNames={names}
          submitLabel="Rename"
          onSubmit={async (name) => {
            await calls.renameTeam(renaming.id, name);
            await refresh();
          }}
          onClose={() => setRenaming(null)}
        />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the team ${deleting?.name ?? ''}?`}
        confirmLabel="Delete team"
        destructive
        pending={remove.isPending}
        error={remove.isError ? (errorText(remove.error) ?? 'Could not delete it') : null}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onClose={() => {
          remove.reset();
          setDeleting(null);
        }}
      >
        Its members lose the fleet accesses the team gave them; they stay members of the
        organization.
      </ConfirmDialog>
    </Stack>
  );
};
