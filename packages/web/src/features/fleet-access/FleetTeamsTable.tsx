import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router';
import { FleetAccessRemoveButton, FleetRoleSelect } from './FleetAccessCells.js';
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
          <FleetRoleSelect
            who={row.name}
            role={row.role}
            denied={changeDenied}
            busy={busy}
            onChange={(role) => onChangeRole(row, role)}
          />
        ),
      },
    ]}
    rowActions={{
      header: 'Actions',
      cell: (row) => (
        <FleetAccessRemoveButton denied={removeDenied} busy={busy} onRemove={() => onRemove(row)} />
      ),
    }}
  />
);
