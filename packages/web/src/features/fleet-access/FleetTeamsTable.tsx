import { roleLabel } from '@flotilla/shared/permissions/role-labels';
import { applicationMembershipRoles } from '@flotilla/shared/permissions/roles';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { Link as RouterLink } from 'react-router';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { EntityTable } from '../../ui/entity-list/EntityTable.js';

export type FleetTeamRow = { id: number; teamId: number; name: string; role: string };

// The teams reaching a fleet: each links to its organization team page, with its role (a
// select) and a remove button, each disabled with the reason when the user may not.
export const FleetTeamsTable = ({
  organizationId,
  rows,
  busy,
  changeDenied,
  removeDenied,
  onChangeRole,
  onRemove,
}: {
  organizationId: number;
  rows: readonly FleetTeamRow[];
  busy: boolean;
  changeDenied: string | null;
  removeDenied: string | null;
  onChangeRole: (row: FleetTeamRow, role: string) => void;
  onRemove: (row: FleetTeamRow) => void;
}) => (
  <EntityTable
    label="Teams"
    frame="paper"
    hover
    rows={rows}
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
      {
        key: 'role',
        header: 'Role',
        cell: (row) => (
          <DisabledReason reason={changeDenied}>
            <TextField
              select
              size="small"
              value={row.role}
              disabled={changeDenied !== null || busy}
              onChange={(event) => onChangeRole(row, event.target.value)}
              slotProps={{ htmlInput: { 'aria-label': `Role of ${row.name}` } }}
            >
              {applicationMembershipRoles.map((role) => (
                <MenuItem key={role} value={role}>
                  {roleLabel(role)}
                </MenuItem>
              ))}
            </TextField>
          </DisabledReason>
        ),
      },
    ]}
    rowActions={{
      header: 'Actions',
      cell: (row) => (
        <DisabledReason reason={removeDenied}>
          <Button
            size="small"
            color="error"
            disabled={removeDenied !== null || busy}
            onClick={() => onRemove(row)}
          >
            Remove
          </Button>
        </DisabledReason>
      ),
    }}
  />
);
