import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router';
import { EntityTable } from '../../ui/entity-list/EntityTable.js';

type TeamRow = {
  id: number;
  name: string;
  team_membership: number;
  team_application_access: number;
};

// The organization's teams with their member and fleet-access counts; rename and delete for
// those who manage teams.
export const TeamsTable = ({
  organizationId,
  teams,
  manage,
  onRename,
  onDelete,
}: {
  organizationId: number;
  teams: readonly TeamRow[];
  manage: boolean;
  onRename: (team: { id: number; name: string }) => void;
  onDelete: (team: { id: number; name: string }) => void;
}) => (
  <EntityTable
    label="Teams"
    frame="paper"
    hover
    rows={teams}
    columns={[
      {
        key: 'name',
        header: 'Name',
        cell: (team) => (
          <Link component={RouterLink} to={`/orgs/${organizationId}/teams/${team.id}`}>
            {team.name}
          </Link>
        ),
      },
      {
        key: 'members',
        header: 'Members',
        headerProps: { align: 'right' },
        cellProps: { align: 'right' },
        cell: (team) => team.team_membership,
      },
      {
        key: 'accesses',
        header: 'Fleet accesses',
        headerProps: { align: 'right' },
        cellProps: { align: 'right' },
        cell: (team) => team.team_application_access,
      },
    ]}
    {...(manage
      ? {
          rowActions: {
            header: 'Actions',
            cell: (team: { id: number; name: string }) => (
              <>
                <Button size="small" onClick={() => onRename({ id: team.id, name: team.name })}>
                  Rename
                </Button>
                <Button
                  size="small"
                  color="error"
                  onClick={() => onDelete({ id: team.id, name: team.name })}
                >
                  Delete
                </Button>
              </>
            ),
          },
        }
      : {})}
  />
);
