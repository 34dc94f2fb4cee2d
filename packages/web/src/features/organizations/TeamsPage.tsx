import { errorText } from '@flotilla/sdk/errors';
import { textLengthLimits } from '@flotilla/shared/constants/limits';
import AddIcon from '@mui/icons-material/Add';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useBreadcrumbs } from '../../ui/breadcrumbs.js';
import { useToasts } from '../../ui/toasts.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { useRefreshOrganization } from './api-members.js';
import { useTeamCalls, useTeams } from './api-teams.js';
import { useOrganizationContext } from './useOrganizationContext.js';

// "Create team" and "Rename": a name unique within the organization,
// ignoring case ("already used").
export const TeamNameDialog = ({
  open,
  title,
  initial,
  takenNames,
  submitLabel,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: string;
  initial: string;
  takenNames: readonly string[];
  submitLabel: string;
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
}) => {
  const [name, setName] = useState(initial);
  const save = useMutation({
    meta: { inlineError: true },
    mutationFn: () => onSubmit(name.trim()),
    onSuccess: () => close(),
  });
  const close = (): void => {
    setName(initial);
    save.reset();
    onClose();
  };
  const trimmed = name.trim();
  const clash =
    trimmed.toLowerCase() !== initial.toLowerCase() &&
    takenNames.some((taken) => taken.toLowerCase() === trimmed.toLowerCase());
  return (
    <Dialog open={open} onClose={save.isPending ? undefined : close} fullWidth maxWidth="xs">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <Stack
          component="form"
          id="team-name-form"
          spacing={2}
          sx={{ pt: 1 }}
          onSubmit={(event) => {
            event.preventDefault();
            if (trimmed && !clash) save.mutate();
          }}
        >
          <TextField
            label="Team name"
            value={name}
            autoFocus
            required
            onChange={(event) => {
              save.reset();
              setName(event.target.value);
            }}
            error={clash}
            helperText={
              clash ? 'This name is already used by a team of this organization' : undefined
            }
            slotProps={{ htmlInput: { maxLength: textLengthLimits.name } }}
          />
          {save.isError ? (
            <Alert severity="error">{errorText(save.error) ?? 'Could not save the team'}</Alert>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={save.isPending}>
          Cancel
        </Button>
        <Button
          type="submit"
          form="team-name-form"
          variant="contained"
          disabled={!trimmed || clash || trimmed === initial || save.isPending}
        >
          {submitLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

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
      <Stack direction="row" sx={{ alignItems: 'center' }}>
        <Typography variant="h2" sx={{ flexGrow: 1 }}>
          Teams
        </Typography>
        {admin ? (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)}>
            Create team
          </Button>
        ) : null}
      </Stack>
      {teams.isPending ? (
        <Skeleton variant="rounded" height={160} aria-label="Loading" />
      ) : teams.isError ? (
        <Alert severity="error">{errorText(teams.error) ?? 'Could not load the teams'}</Alert>
      ) : teams.data.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <Typography color="text.secondary">
            No teams yet. Teams give their members a role on fleets together.
          </Typography>
        </Paper>
      ) : (
        <Paper variant="outlined">
          <Table aria-label="Teams">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell align="right">Members</TableCell>
                <TableCell align="right">Fleet accesses</TableCell>
                {admin ? <TableCell align="right">Actions</TableCell> : null}
              </TableRow>
            </TableHead>
            <TableBody>
              {teams.data.map((team) => (
                <TableRow key={team.id} hover>
                  <TableCell>
                    <Link component={RouterLink} to={`/orgs/${organization.id}/teams/${team.id}`}>
                      {team.name}
                    </Link>
                  </TableCell>
                  <TableCell align="right">{team.team_membership}</TableCell>
                  <TableCell align="right">{team.team_application_access}</TableCell>
                  {admin ? (
                    <TableCell align="right">
                      <Button
                        size="small"
                        onClick={() => setRenaming({ id: team.id, name: team.name })}
                      >
                        Rename
                      </Button>
                      <Button
                        size="small"
                        color="error"
                        onClick={() => setDeleting({ id: team.id, name: team.name })}
                      >
                        Delete
                      </Button>
                    </TableCell>
                  ) : null}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      )}
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
