import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useSession } from '../../api/session/useSession.js';
import { useImpersonatedUser, useReturnToAdmin } from './api.js';

// Shown on every signed-in screen while a platform administrator is logged in as this user: who
// acts, and the way back to the administrator's own session.
export const LoginAsBanner = () => {
  const session = useSession();
  const whoami = useImpersonatedUser();
  const returnToAdmin = useReturnToAdmin();
  const [busy, setBusy] = useState(false);
  if (session?.actualUser === undefined) return null;
  const username = whoami.data && 'username' in whoami.data ? whoami.data.username : '';
  const goBack = async (): Promise<void> => {
    setBusy(true);
    await returnToAdmin();
  };
  return (
    <Alert
      severity="warning"
      square
      action={
        <Button color="inherit" size="small" disabled={busy} onClick={() => void goBack()}>
          Back to my account
        </Button>
      }
    >
      You are logged in as {username || `user ${session.userId}`} by a platform administrator.
      Everything you do is recorded as done by the administrator on this user's behalf.
    </Alert>
  );
};
