import { roleLabel } from '@flotilla/shared/permissions/role-labels';
import { applicationMembershipRoles } from '@flotilla/shared/permissions/roles';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { classLabels } from '../../fleet/class-names.js';
import type { FleetMemberSort } from './api.js';

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
    <Paper variant="outlined">
      <Table aria-label="Members">
        <TableHead>
          <TableRow>
            {(['username', 'saml'] as const).map((by) => (
              <TableCell key={by} sortDirection={sort.by === by ? sort.direction : false}>
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
              </TableCell>
            ))}
            <TableCell>Role</TableCell>
            <TableCell align="right">Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id} hover>
              <TableCell>
                {row.organizationMembershipId === null ? (
                  row.username
                ) : (
                  <Link
                    component={RouterLink}
                    to={`/orgs/${organizationId}/members/${row.organizationMembershipId}`}
                  >
                    {row.username}
                  </Link>
                )}
              </TableCell>
              <TableCell>
                {row.saml ? (
                  <Chip
                    size="small"
                    variant="outlined"
                    label="SAML"
                    title="Signs in through an identity provider"
                  />
                ) : null}
              </TableCell>
              <TableCell>
                <DisabledReason reason={changeRoleDenied}>
                  <TextField
                    select
                    size="small"
                    value={row.role}
                    disabled={changeRoleDenied !== null || busy}
                    onChange={(event) => onChangeRole(row, event.target.value)}
                    slotProps={{ htmlInput: { 'aria-label': `Role of ${row.username}` } }}
                  >
                    {applicationMembershipRoles.map((role) => (
                      <MenuItem key={role} value={role}>
                        {roleLabel(role)}
                      </MenuItem>
                    ))}
                  </TextField>
                </DisabledReason>
              </TableCell>
              <TableCell align="right">
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
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <TablePagination
        component="div"
        count={total}
        page={page}
        rowsPerPage={pageSize}
        rowsPerPageOptions={[pageSize]}
        onPageChange={(_event, next) => onPage(next)}
      />
    </Paper>
  );
};
