import { roleLabel } from '@flotilla/shared/permissions/role-labels';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';

export type PendingInvitation = {
  id: number;
  invitee: string;
  role: string;
  message: string | null;
};

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
      <Table size="small" aria-label="Pending invitations">
        <TableHead>
          <TableRow>
            <TableCell>Invitee</TableCell>
            <TableCell>Role</TableCell>
            <TableCell>Message</TableCell>
            <TableCell align="right">Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {invitations.map((invitation) => (
            <TableRow key={invitation.id}>
              <TableCell>{invitation.invitee}</TableCell>
              <TableCell>{roleLabel(invitation.role)}</TableCell>
              <TableCell sx={{ maxWidth: 320, overflowWrap: 'anywhere' }}>
                {invitation.message ?? ''}
              </TableCell>
              <TableCell align="right">
                <Button
                  size="small"
                  color="error"
                  disabled={!canRevoke || revoking}
                  onClick={() => onRevoke(invitation.id)}
                >
                  Revoke
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    )}
  </Paper>
);
