import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import { roleLabel } from '@flotilla/shared/permissions/role-labels';
import { applicationMembershipRoles } from '@flotilla/shared/permissions/roles';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { classLabels } from '../../fleet/class-names.js';

export type AccessRow = {
  // The team access or fleet membership.
  id: number;
  fleetId: number;
  name: string;
  role: string;
};

// Roles on fleets, apps and blocks of one class, with role change and removal.
export const AccessTable = ({
  className,
  rows,
  canManage,
  busy,
  onChangeRole,
  onRemove,
}: {
  className: ApplicationClass;
  rows: readonly AccessRow[];
  canManage: boolean;
  busy: boolean;
  onChangeRole: (row: AccessRow, role: string) => void;
  onRemove: (row: AccessRow) => void;
}) => {
  const labels = classLabels[className];
  if (rows.length === 0) {
    return (
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography color="text.secondary">
          No access to any {labels.one.toLowerCase()} yet.
        </Typography>
      </Paper>
    );
  }
  return (
    <Paper variant="outlined">
      <Table aria-label={`${labels.many} access`}>
        <TableHead>
          <TableRow>
            <TableCell>{labels.one}</TableCell>
            <TableCell>Role</TableCell>
            {canManage ? <TableCell align="right">Actions</TableCell> : null}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id} hover>
              <TableCell>
                <Link component={RouterLink} to={`${labels.path}/${row.fleetId}`}>
                  {row.name}
                </Link>
              </TableCell>
              <TableCell>
                {canManage ? (
                  <TextField
                    select
                    size="small"
                    value={row.role}
                    disabled={busy}
                    onChange={(event) => onChangeRole(row, event.target.value)}
                    slotProps={{ htmlInput: { 'aria-label': `Role on ${row.name}` } }}
                  >
                    {applicationMembershipRoles.map((role) => (
                      <MenuItem key={role} value={role}>
                        {roleLabel(role)}
                      </MenuItem>
                    ))}
                  </TextField>
                ) : (
                  roleLabel(row.role)
                )}
              </TableCell>
              {canManage ? (
                <TableCell align="right">
                  <Button size="small" color="error" disabled={busy} onClick={() => onRemove(row)}>
                    Remove
                  </Button>
                </TableCell>
              ) : null}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Paper>
  );
};
