import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useMemo } from 'react';
import { Navigate } from 'react-router';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { AuthFrame } from '../../ui/AuthFrame.js';
import { LoginAsBanner } from '../platform-admin/LoginAsBanner.js';
import { useLogout } from '../../api/session/api-session.js';
import { useProfile } from '../../api/session/profile-query.js';
import { LoadingScreen } from '../../api/session/guards.js';
import { debounce } from './debounce.js';
import { useResendVerification } from './api.js';

// The resend request is debounced 300 ms, so a double click asks once.
export const resendDebounceMs = 300;

// /user/verify-email/pending: where a user who must verify their address waits, with a resend and a way out; once verified, on to the console.
export const VerificationPendingPage = () => {
  usePageTitle('Verify e-mail');
  const profile = useProfile();
  const resend = useResendVerification();
  const logout = useLogout();
  // TanStack Query keeps `mutate` the same function across renders.
  const { mutate } = resend;
  const askAgain = useMemo(() => debounce(() => mutate(), resendDebounceMs), [mutate]);
  useEffect(() => () => askAgain.cancel(), [askAgain]);
  if (profile.isPending) return <LoadingScreen />;
  const data = profile.data;
  if (data && (data.is_verified || !data.must_be_verified)) return <Navigate to="/" replace />;
  return (
    <>
      {/* A platform administrator logged in as this user needs the way back here too. */}
      <LoginAsBanner />
      <AuthFrame title="Verify your e-mail address">
        <Stack spacing={2}>
          {profile.isError ? (
            <Alert
              severity="error"
              action={
                <Button color="inherit" size="small" onClick={() => void profile.refetch()}>
                  Retry
                </Button>
              }
            >
              Could not load your account: {errorText(profile.error) ?? 'An error has occurred'}
            </Alert>
          ) : null}
          <Typography>
            We sent a verification link to <strong>{data?.email ?? 'your e-mail address'}</strong>.
            Open it to start using Flotilla.
          </Typography>
          {resend.isSuccess ? <Alert severity="success">A new link is on its way.</Alert> : null}
          {resend.isError ? (
            <Alert severity="error">{errorText(resend.error) ?? 'Could not send a new link'}</Alert>
          ) : null}
          <Button variant="contained" onClick={() => askAgain.call()} disabled={resend.isPending}>
            {resend.isPending ? 'Sending…' : 'Send the link again'}
          </Button>
          <Button onClick={() => logout()}>Log out</Button>
        </Stack>
      </AuthFrame>
    </>
  );
};
