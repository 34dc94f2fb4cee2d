import { platformRolesOf } from '@flotilla/shared/permissions/fleet-access';
import { supportAccessNotice } from '@flotilla/shared/permissions/support-access';
import Alert from '@mui/material/Alert';
import { useState } from 'react';
import { useSession } from './useSession.js';

// The latest of the grants that reach the page (a device's own and its fleet's).
const latest = (dates: readonly (string | null)[]): string | null =>
  dates.reduce<string | null>(
    (best, date) => (date !== null && (best === null || date > best) ? date : best),
    null,
  );

// What support agents and platform administrators see on a page they open: that the members
// have not granted support access (agents then see nothing there), or until when they have.
// Nobody else sees it, nor staff who are members there themselves (`member`: their own fleets
// and organizations need no grant).
export const SupportAccessNotice = ({
  until,
  subject,
  member,
}: {
  until: readonly (string | null)[];
  subject: string;
  member: boolean;
}) => {
  const session = useSession();
  const [now] = useState(() => Date.now());
  if (member || platformRolesOf(session?.permissions ?? []).length === 0) return null;
  const notice = supportAccessNotice(latest(until), now);
  if (notice.kind === 'none') {
    return (
      <Alert severity="error" sx={{ mb: 2 }}>
        No support access: the owners of this {subject} have not granted support access.
      </Alert>
    );
  }
  return (
    <Alert severity="info" sx={{ mb: 2 }}>
      Support access until {notice.until.toLocaleString()}.
    </Alert>
  );
};
