import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { DisabledReason } from '../../ui/DisabledReason.js';

export type TeamMember = {
  // The team membership.
  id: number;
  userId: number;
  username: string;
  // The member's organization membership (their member page), if readable.
  organizationMembershipId: number | null;
};

// A team's members, removable one by one or together (at least one selected).
export const TeamMembersTable = ({
  organizationId,
  members,
  canManage,
  busy,
  onRemove,
}: {
  organizationId: number;
  members: readonly TeamMember[];
  canManage: boolean;
  busy: boolean;
  onRemove: (teamMembershipIds: readonly number[]) => void;
}) => {
  const [selected, setSelected] = useState<readonly number[]>([]);
  const chosen = members
    .filter((member) => selected.includes(member.id))
    .map((member) => member.id);
  if (members.length === 0) {
    return (
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography color="text.secondary">No members yet.</Typography>
      </Paper>
    );
  }
  return (
    <Paper variant="outlined">
      {canManage ? (
        <Stack direction="row" sx={{ p: 1.5, alignItems: 'center' }}>
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
              onClick={() => {
                onRemove(chosen);
                setSelected([]);
              }}
            >
              Remove selected
            </Button>
          </DisabledReason>
        </Stack>
      ) : null}
      <Table aria-label="Team members">
        <TableHead>
          <TableRow>
            {canManage ? <TableCell padding="checkbox" /> : null}
            <TableCell>Username</TableCell>
            {canManage ? <TableCell align="right">Actions</TableCell> : null}
          </TableRow>
        </TableHead>
        <TableBody>
          {members.map((member) => {
            const link =
              member.organizationMembershipId === null
                ? null
                : `/orgs/${organizationId}/members/${member.organizationMembershipId}`;
            return (
              <TableRow key={member.id} hover>
                {canManage ? (
                  <TableCell padding="checkbox">
                    <Checkbox
                      checked={selected.includes(member.id)}
                      onChange={() =>
                        setSelected((current) =>
                          current.includes(member.id)
                            ? current.filter((id) => id !== member.id)
                            : [...current, member.id],
                        )
                      }
                      slotProps={{ input: { 'aria-label': `Select ${member.username}` } }}
                    />
                  </TableCell>
                ) : null}
                <TableCell>
                  {link ? (
                    <Link component={RouterLink} to={link}>
                      {member.username}
                    </Link>
                  ) : (
                    member.username
                  )}
                </TableCell>
                {canManage ? (
                  <TableCell align="right">
                    <Button
                      size="small"
                      color="error"
                      disabled={busy}
                      onClick={() => onRemove([member.id])}
                    >
                      Remove
                    </Button>
                  </TableCell>
                ) : null}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Paper>
  );
};
