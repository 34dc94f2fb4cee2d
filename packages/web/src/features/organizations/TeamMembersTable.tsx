import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { EntityTable, type EntityColumn } from '../../ui/entity-list/EntityTable.js';
import { SelectionBar } from '../../ui/entity-list/SelectionBar.js';

export type TeamMember = {
  // The team membership.
  id: number;
  userId: number;
  username: string;
  // The member's organization membership (their member page), if readable.
  organizationMembershipId: number | null;
};

const usernameColumn = (organizationId: number): EntityColumn<TeamMember> => ({
  key: 'username',
  header: 'Username',
  cell: (member) =>
    member.organizationMembershipId === null ? (
      member.username
    ) : (
      <Link
        component={RouterLink}
        to={`/orgs/${organizationId}/members/${member.organizationMembershipId}`}
      >
        {member.username}
      </Link>
    ),
});

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
  const management = {
    selection: {
      selected,
      onChange: setSelected,
      rowLabel: (member: TeamMember) => `Select ${member.username}`,
      allLabel: 'Select all members',
    },
    rowActions: {
      header: 'Actions',
      cell: (member: TeamMember) => (
        <Button size="small" color="error" disabled={busy} onClick={() => onRemove([member.id])}>
          Remove
        </Button>
      ),
    },
    toolbar: (
      <SelectionBar
        count={chosen.length}
        hint="Select members to remove them together"
        noneReason="No members selected"
        actionLabel="Remove selected"
        busy={busy}
        onAction={() => {
          onRemove(chosen);
          setSelected([]);
        }}
      />
    ),
  };
  return (
    <EntityTable
      label="Team members"
      rows={members}
      columns={[usernameColumn(organizationId)]}
      hover
      frame="paper"
      {...(canManage ? management : {})}
    />
  );
};
