import { roleLabel } from '@flotilla/shared/permissions/role-labels';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
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
import { DisabledReason } from '../../ui/DisabledReason.js';
import type { MemberSort } from './api-members.js';

export type MemberRow = {
  // The organization membership.
  id: number;
  userId: number;
  username: string;
  role: string;
  teams: readonly { id: number; name: string }[];
  saml: boolean;
};

const SamlBadge = () => (
  <Chip
    size="small"
    variant="outlined"
    label="SAML"
    title="Signs in through an identity provider"
  />
);

// The organization's members, a page at a time (the server pages and sorts).
export const MembersTable = ({
  organizationId,
  rows,
  total,
  page,
  pageSize,
  sort,
  ownUserId,
  isAdministrator,
  ownLeaveReason,
  roles,
  selected,
  busy,
  onPage,
  onSort,
  onSelect,
  onChangeRole,
  onRemove,
}: {
  organizationId: number;
  rows: readonly MemberRow[];
  total: number;
  page: number;
  pageSize: number;
  sort: MemberSort;
  ownUserId: number;
  isAdministrator: boolean;
  ownLeaveReason: string | null;
  roles: readonly string[];
  selected: readonly number[];
  busy: boolean;
  onPage: (page: number) => void;
  onSort: (sort: MemberSort) => void;
  onSelect: (ids: readonly number[]) => void;
  onChangeRole: (ids: readonly number[], role: string) => void;
  onRemove: (rows: readonly MemberRow[]) => void;
}) => {
  const chosen = rows.filter((row) => selected.includes(row.id));
  const allChosen = rows.length > 0 && chosen.length === rows.length;
  return (
    <Paper variant="outlined">
      {isAdministrator ? (
        <Stack direction="row" spacing={1} sx={{ p: 1.5, alignItems: 'center' }}>
          <Typography variant="body2" color="text.secondary" sx={{ flexGrow: 1 }}>
            {chosen.length === 0
              ? 'Select members to remove them together'
              : `${chosen.length} selected`}
          </Typography>
          <DisabledReason reason={chosen.length === 0 ? 'No members selected' : null}>
            <Button
              size="small"
              color="error"
              disabled={chosen.length === 0 || busy}
              onClick={() => onRemove(chosen)}
            >
              Remove selected
            </Button>
          </DisabledReason>
        </Stack>
      ) : null}
      <Table aria-label="Members">
        <TableHead>
          <TableRow>
            {isAdministrator ? (
              <TableCell padding="checkbox">
                <Checkbox
                  checked={allChosen}
                  indeterminate={chosen.length > 0 && !allChosen}
                  onChange={() => onSelect(allChosen ? [] : rows.map((row) => row.id))}
                  slotProps={{ input: { 'aria-label': 'Select all members on this page' } }}
                />
              </TableCell>
            ) : null}
            <TableCell sortDirection={sort === 'username asc' ? 'asc' : 'desc'}>
              <TableSortLabel
                active
                direction={sort === 'username asc' ? 'asc' : 'desc'}
                onClick={() => onSort(sort === 'username asc' ? 'username desc' : 'username asc')}
              >
                Username
              </TableSortLabel>
            </TableCell>
            <TableCell>Role</TableCell>
            <TableCell>Teams</TableCell>
            <TableCell align="right">Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => {
            const own = row.userId === ownUserId;
            return (
              <TableRow key={row.id} hover>
                {isAdministrator ? (
                  <TableCell padding="checkbox">
                    <Checkbox
                      checked={selected.includes(row.id)}
                      onChange={() =>
                        onSelect(
                          selected.includes(row.id)
                            ? selected.filter((id) => id !== row.id)
                            : [...selected, row.id],
                        )
                      }
                      slotProps={{ input: { 'aria-label': `Select ${row.username}` } }}
                    />
                  </TableCell>
                ) : null}
                <TableCell>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                    <Link component={RouterLink} to={`/orgs/${organizationId}/members/${row.id}`}>
                      {row.username}
                    </Link>
                    {own ? <Chip size="small" label="You" /> : null}
                    {row.saml ? <SamlBadge /> : null}
                  </Stack>
                </TableCell>
                <TableCell>
                  {isAdministrator ? (
                    <TextField
                      select
                      size="small"
                      value={row.role}
                      disabled={busy}
                      onChange={(event) => onChangeRole([row.id], event.target.value)}
                      slotProps={{ htmlInput: { 'aria-label': `Role of ${row.username}` } }}
                    >
                      {roles.map((role) => (
                        <MenuItem key={role} value={role}>
                          {roleLabel(role)}
                        </MenuItem>
                      ))}
                    </TextField>
                  ) : (
                    roleLabel(row.role)
                  )}
                </TableCell>
                <TableCell>
                  <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', gap: 0.5 }}>
                    {row.teams.map((team) => (
                      <Chip
                        key={team.id}
                        size="small"
                        label={team.name}
                        component={RouterLink}
                        to={`/orgs/${organizationId}/teams/${team.id}`}
                        clickable
                      />
                    ))}
                  </Stack>
                </TableCell>
                <TableCell align="right">
                  {own ? (
                    <DisabledReason reason={ownLeaveReason}>
                      <Button
                        size="small"
                        disabled={ownLeaveReason !== null || busy}
                        onClick={() => onRemove([row])}
                      >
                        Leave
                      </Button>
                    </DisabledReason>
                  ) : isAdministrator ? (
                    <Button
                      size="small"
                      color="error"
                      disabled={busy}
                      onClick={() => onRemove([row])}
                    >
                      Remove
                    </Button>
                  ) : null}
                </TableCell>
              </TableRow>
            );
          })}
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
