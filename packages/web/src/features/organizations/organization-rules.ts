// Why the signed-in user may not leave or delete an organization, or null: an
// organization always keeps an administrator.
export const leaveReason = (isAdministrator: boolean, administrators: number): string | null =>
  isAdministrator && administrators <= 1
    ? 'You are its only administrator: make someone else administrator first'
    : null;

export const deleteReason = (isAdministrator: boolean, administrators: number): string | null => {
  if (!isAdministrator) return 'Only its administrator can delete an organization';
  if (administrators > 1) return 'Only its sole administrator can delete an organization';
  return null;
};
