import { roleLabel } from '@flotilla/shared/permissions/role-labels';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TableSortLabel from '@mui/material/TableSortLabel';
import TextField from '@mui/material/TextField';
import { Link as RouterLink } from 'react-router';
import { DisabledReason } from '../../ui/DisabledReason.js';
import type { MemberSort } from './api-members.js';
import { EntityTable } from '../../ui/entity-list/EntityTable.js';
import { ListPagination } from '../../ui/entity-list/ListPagination.js';
import { SelectionBar } from '../../ui/entity-list/SelectionBar.js';

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
  return (
    <EntityTable
      label="Members"
      frame="paper"
      hover
      rows={rows}
      {...(isAdministrator
        ? {
            selection: {
              selected,
              onChange: onSelect,
              rowLabel: (row: MemberRow) => `Select ${row.username}`,
              allLabel: 'Select all members on this page',
            },
            toolbar: (
              <SelectionBar
                count={chosen.length}
                hint="Select members to remove them together"
                noneReason="No members selected"
                actionLabel="Remove selected"
                busy={busy}
                onAction={() => onRemove(chosen)}
              />
            ),
          }
        : {})}
      columns={[
        {
          key: 'username',
          headerProps: { sortDirection: sort === 'username asc' ? 'asc' : 'desc' },
          header: (
            <TableSortLabel
              active
              direction={sort === 'username asc' ? 'asc' : 'desc'}
              onClick={() => onSort(sort === 'username asc' ? 'username desc' : 'username asc')}
            >
              Username
            </TableSortLabel>
          ),
          cell: (row) => (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Link component={RouterLink} to={`/orgs/${organizationId}/members/${row.id}`}>
                {row.username}
              </Link>
              {row.userId === ownUserId ? <Chip size="small" label="You" /> : null}
              {row.saml ? <SamlBadge /> : null}
            </Stack>
          ),
        },
        {
          key: 'role',
          header: 'Role',
          cell: (row) =>
            isAdministrator ? (
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
            ),
        },
        {
          key: 'teams',
          header: 'Teams',
          cell: (row) => (
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
          ),
        },
      ]}
      rowActions={{
        header: 'Actions',
        cell: (row) =>
          row.userId === ownUserId ? (
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
            <Button size="small" color="error" disabled={busy} onClick={() => onRemove([row])}>
              Remove
            </Button>
          ) : null,
      }}
      footer={<ListPagination total={total} page={page} pageSize={pageSize} onPage={onPage} />}
    />
  );
};

type MemberUser = {
  id: number;
  username: string;
  organization_membership: { id: number; organization_membership_role: { name: string }[] }[];
  team_membership: { is_member_of__team: { id: number; name: string }[] }[];
  owns__saml_account: number;
};

// One row per membership of the page's users (the server pages over users).
export const memberRowsOf = (users: readonly MemberUser[]): MemberRow[] =>
  users.flatMap((user) =>
    user.organization_membership.map((membership) => ({
      id: membership.id,
      userId: user.id,
      username: user.username,
      role: membership.organization_membership_role[0]?.name ?? 'member',
      teams: user.team_membership.flatMap((teamMembership) =>
        teamMembership.is_member_of__team.map((team) => ({ id: team.id, name: team.name })),
      ),
      saml: user.owns__saml_account > 0,
    })),
  );
