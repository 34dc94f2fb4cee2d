import { roleLabel } from '@flotilla/shared/permissions/role-labels';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { EntityTable, type EntityColumn } from '../../ui/entity-list/EntityTable.js';

export type PendingInvitation = {
  id: number;
  invitee: string;
  role: string;
  message: string | null;
};

const columns: readonly EntityColumn<PendingInvitation>[] = [
  { key: 'invitee', header: 'Invitee', cell: (invitation) => invitation.invitee },
  { key: 'role', header: 'Role', cell: (invitation) => roleLabel(invitation.role) },
  {
    key: 'message',
    header: 'Message',
    cell: (invitation) => invitation.message ?? '',
    cellProps: { sx: { maxWidth: 320, overflowWrap: 'anywhere' } },
  },
];

// Pending invitations, listed below the members with a revoke on each (organizations and fleets
// alike).
export const InvitationsTable = ({
  invitations,
  canRevoke,
  revoking,
  onRevoke,
}: {
  invitations: readonly PendingInvitation[];
  canRevoke: boolean;
  revoking: boolean;
  onRevoke: (id: number) => void;
}) => (
  <Paper variant="outlined">
    <Typography variant="h3" sx={{ p: 2, pb: 1 }}>
      Pending invitations
    </Typography>
    {invitations.length === 0 ? (
      <Typography color="text.secondary" sx={{ px: 2, pb: 2 }}>
        No pending invitations.
      </Typography>
    ) : (
      <EntityTable
        label="Pending invitations"
        rows={invitations}
        columns={columns}
        size="small"
        rowActions={{
          header: 'Actions',
          cell: (invitation) => (
            <Button
              size="small"
              color="error"
              disabled={!canRevoke || revoking}
              onClick={() => onRevoke(invitation.id)}
            >
              Revoke
            </Button>
          ),
        }}
      />
    )}
  </Paper>
);
