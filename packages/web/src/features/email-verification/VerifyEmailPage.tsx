import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import { useEffect, useRef } from 'react';
import { Navigate, Link as RouterLink, useParams } from 'react-router';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { AuthFrame } from '../../ui/AuthFrame.js';
import { RequireSession } from '../../api/session/guards.js';
import { useVerifyEmail } from './api.js';
import { linkParts } from './link-parts.js';
import { VerificationPendingPage } from './VerificationPendingPage.js';

// /user/verify-email/:first/:second, the mailed link: verifies at once and signs the user in
// with the session the server answers (pending the second factor when enabled).
export const VerifyEmailPage = () => {
  usePageTitle('Verify e-mail');
  const { first = '', second = '' } = useParams();
  const verify = useVerifyEmail(linkParts(first, second));
  const { mutate } = verify;
  // A link works once: sent once per link, even when React runs the effect twice (StrictMode).
  const sent = useRef<string | undefined>(undefined);
  useEffect(() => {
    const link = `${first}/${second}`;
    if (sent.current === link) return;
    sent.current = link;
    mutate();
  }, [mutate, first, second]);
  if (verify.isError) {
    return (
      <AuthFrame title="Verify your e-mail address">
        <Stack spacing={2}>
          <Alert severity="error">
            {errorText(verify.error) ?? 'There was a problem verifying your e-mail address'}
          </Alert>
          <Button component={RouterLink} to="/user/verify-email/pending" variant="contained">
            Send a new link
          </Button>
        </Stack>
      </AuthFrame>
    );
  }
  if (verify.isSuccess) {
    return (
      <AuthFrame title="E-mail address verified">
        <Stack spacing={2}>
          <Alert severity="success">Thank you: your e-mail address is verified.</Alert>
          <Button component={RouterLink} to="/" variant="contained" size="large">
            Continue
          </Button>
        </Stack>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Verify your e-mail address">
      <Stack sx={{ alignItems: 'center' }} role="status" aria-label="Verifying">
        <CircularProgress />
      </Stack>
    </AuthFrame>
  );
};

// /user/verify-email/pending (signed in) and /user/verify-email/:first/:second share one route
// (the entry chunk holds the table).
export const VerifyEmailRoute = () => {
  const { first, second } = useParams();
  if (second !== undefined) return <VerifyEmailPage />;
  if (first !== 'pending') return <Navigate to="/404" replace />;
  return (
    <RequireSession>
      <VerificationPendingPage />
    </RequireSession>
  );
};
