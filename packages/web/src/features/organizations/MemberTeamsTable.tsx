import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { EntityTable } from '../../ui/entity-list/EntityTable.js';

type MemberTeam = { id: number; teamId: number; name: string };

// The teams one member is in, each linking to its team page; administrators remove the member
// from a team.
export const MemberTeamsTable = ({
  organizationId,
  teams,
  canManage,
  busy,
  onRemove,
}: {
  organizationId: number;
  teams: readonly MemberTeam[];
  canManage: boolean;
  busy: boolean;
  onRemove: (row: MemberTeam) => void;
}) =>
  teams.length === 0 ? (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Typography color="text.secondary">Not in any team of this organization.</Typography>
    </Paper>
  ) : (
    <EntityTable
      label="Teams of the member"
      frame="paper"
      hover
      rows={teams}
      columns={[
        {
          key: 'team',
          header: 'Team',
          cell: (row) => (
            <Link component={RouterLink} to={`/orgs/${organizationId}/teams/${row.teamId}`}>
              {row.name}
            </Link>
          ),
        },
      ]}
      {...(canManage
        ? {
            rowActions: {
              header: 'Actions',
              cell: (row: MemberTeam) => (
                <Button size="small" color="error" disabled={busy} onClick={() => onRemove(row)}>
                  Remove from team
                </Button>
              ),
            },
          }
        : {})}
    />
  );
