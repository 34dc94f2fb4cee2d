import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useClient } from '../../api/client.js';
import { useSession } from '../../api/session/useSession.js';
import { returnToAdmin } from './admin-session.js';
import { sessionKeys } from '../../api/session/query-keys.js';

// Shown on every signed-in screen while a platform administrator is logged in as this user: who
// acts, and the way back to the administrator's own session.
export const LoginAsBanner = () => {
  const client = useClient();
  const session = useSession();
  // The same query as the account menu's: one request.
  const whoami = useQuery({
    queryKey: sessionKeys.whoami(session?.userId),
    queryFn: () => client.auth.whoami(),
    enabled: session?.actualUser !== undefined,
  });
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  if (session?.actualUser === undefined) return null;
  const username = whoami.data && 'username' in whoami.data ? whoami.data.username : '';
  const goBack = async (): Promise<void> => {
    setBusy(true);
    const back = await returnToAdmin(client, () => queryClient.clear());
    if (back) {
      void navigate('/admin');
    } else {
      client.auth.logout();
      void navigate('/login');
    }
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
