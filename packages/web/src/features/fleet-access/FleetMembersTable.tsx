import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import TableSortLabel from '@mui/material/TableSortLabel';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import { FleetAccessRemoveButton, FleetRoleSelect } from './FleetAccessCells.js';
import { classLabels } from '../../fleet/class-names.js';
import type { FleetMemberSort } from './api.js';
import { type EntityColumn, EntityTable } from '../../ui/entity-list/EntityTable.js';
import { ListPagination } from '../../ui/entity-list/ListPagination.js';

export type FleetMemberRow = {
  // The user_application_membership.
  id: number;
  username: string;
  role: string;
  // The member's organization membership, for the link to the organization member page.
  organizationMembershipId: number | null;
  saml: boolean;
};

// A fleet's members, a page at a time (the server pages and sorts by username).
export const FleetMembersTable = ({
  className,
  organizationId,
  rows,
  total,
  page,
  pageSize,
  sort,
  changeRoleDenied,
  removeDenied,
  busy,
  onPage,
  onSort,
  onChangeRole,
  onRemove,
}: {
  className: ApplicationClass;
  organizationId: number;
  rows: readonly FleetMemberRow[];
  total: number;
  page: number;
  pageSize: number;
  sort: FleetMemberSort;
  // Null when allowed, else why not (the disabled control's tooltip).
  changeRoleDenied: string | null;
  removeDenied: string | null;
  busy: boolean;
  onPage: (page: number) => void;
  onSort: (sort: FleetMemberSort) => void;
  onChangeRole: (row: FleetMemberRow, role: string) => void;
  onRemove: (row: FleetMemberRow) => void;
}) => {
  if (total === 0) {
    return (
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography color="text.secondary">
          No members yet: the organization&apos;s administrators and its teams reach this{' '}
          {classLabels[className].one.toLowerCase()}.
        </Typography>
      </Paper>
    );
  }
  return (
    <EntityTable
      label="Members"
      frame="paper"
      hover
      rows={rows}
      columns={[
        ...(['username', 'saml'] as const).map((by): EntityColumn<FleetMemberRow> => ({
          key: by,
          headerProps: { sortDirection: sort.by === by ? sort.direction : false },
          header: (
            <TableSortLabel
              active={sort.by === by}
              direction={sort.by === by ? sort.direction : 'asc'}
              onClick={() =>
                onSort({
                  by,
                  direction: sort.by === by && sort.direction === 'asc' ? 'desc' : 'asc',
                })
              }
            >
              {by === 'username' ? 'Username' : 'SAML'}
            </TableSortLabel>
          ),
          cell: (row) =>
            by === 'username' ? (
              row.organizationMembershipId === null ? (
                row.username
              ) : (
                <Link
                  component={RouterLink}
                  to={`/orgs/${organizationId}/members/${row.organizationMembershipId}`}
                >
                  {row.username}
                </Link>
              )
            ) : row.saml ? (
              <Chip
                size="small"
                variant="outlined"
                label="SAML"
                title="Signs in through an identity provider"
              />
            ) : null,
        })),
        {
          key: 'role',
          header: 'Role',
          cell: (row) => (
            <FleetRoleSelect
              who={row.username}
              role={row.role}
              denied={changeRoleDenied}
              busy={busy}
              onChange={(role) => onChangeRole(row, role)}
            />
          ),
        },
      ]}
      rowActions={{
        header: 'Actions',
        cell: (row) => (
          <FleetAccessRemoveButton
            denied={removeDenied}
            busy={busy}
            onRemove={() => onRemove(row)}
          />
        ),
      }}
      footer={<ListPagination total={total} page={page} pageSize={pageSize} onPage={onPage} />}
    />
  );
};
