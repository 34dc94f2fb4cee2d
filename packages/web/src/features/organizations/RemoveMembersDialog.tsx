import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import type { MemberRow } from './MembersTable.js';

// Removing members, or leaving when the only one is the user: the dialog names them and says
// what they lose.
export const RemoveMembersDialog = ({
  members,
  ownUserId,
  pending,
  error,
  onConfirm,
  onClose,
}: {
  members: readonly MemberRow[];
  ownUserId: number;
  pending: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) => {
  const leaving = members.length === 1 && members[0]?.userId === ownUserId;
  return (
    <ConfirmDialog
      open={members.length > 0}
      title={
        leaving
          ? 'Leave the organization?'
          : members.length === 1
            ? `Remove ${members[0]?.username ?? ''}?`
            : `Remove ${members.length} members?`
      }
      items={members.map((row) => row.username)}
      confirmLabel={leaving ? 'Leave' : 'Remove'}
      destructive
      pending={pending}
      error={error}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      They lose access to the organization, its teams and its fleets.
    </ConfirmDialog>
  );
};
