import { errorText, FlotillaApiError } from '@flotilla/sdk/errors';
import { oauthRedirect } from '@flotilla/shared/auth/oauth';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router';
import { useClient } from '../../app/client.js';
import { leaveConsole } from '../../ui/leave-console.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useSession } from '../session/useSession.js';
import { authorizeApplication, oauthApplicationQuery } from './oauth-queries.js';

const originOf = (uri: string): string => {
  try {
    return new URL(uri).origin;
  } catch {
    return uri;
  }
};

// /login/oauth/:clientId?state=…&redirect_uri=…&code_challenge=… (seed 000 sections 2.1 and 4;
// PKCE passed through): the signed-in
// user allows or denies a registered application. Allow asks the server for a code and goes to
// the registered redirect URI with code and state; deny goes there with error=access_denied.
export const OAuthConsentPage = () => {
  usePageTitle('Authorize application');
  const client = useClient();
  const session = useSession();
  const { clientId = '' } = useParams();
  const [search] = useSearchParams();
  const state = search.get('state');
  const requestedRedirect = search.get('redirect_uri');
  const application = useQuery(oauthApplicationQuery(client, clientId));
  const whoami = useQuery({
    queryKey: ['whoami', session?.userId],
    queryFn: () => client.auth.whoami(),
  });
  const allow = useMutation({
    mutationFn: () =>
      authorizeApplication(client, {
        clientId,
        redirectUri: requestedRedirect,
        state,
        codeChallenge: search.get('code_challenge'),
        codeChallengeMethod: search.get('code_challenge_method'),
      }),
    onSuccess: (answer) =>
      leaveConsole(oauthRedirect(answer.redirect_uri, { code: answer.code }, state)),
  });
  const username = whoami.data && 'username' in whoami.data ? whoami.data.username : null;
  return (
    <Box sx={{ maxWidth: 640 }}>
      <Typography variant="h1" sx={{ mb: 2 }}>
        Authorize application
      </Typography>
      {application.isPending ? (
        <Skeleton variant="rounded" height={180} aria-label="Loading" />
      ) : application.isError ? (
        <Alert
          severity="error"
          action={
            application.error instanceof FlotillaApiError &&
            application.error.status === 404 ? null : (
              <Button color="inherit" size="small" onClick={() => void application.refetch()}>
                Retry
              </Button>
            )
          }
        >
          {application.error instanceof FlotillaApiError && application.error.status === 404
            ? 'There is no application with this client id. Check the link you followed.'
            : (errorText(application.error) ?? 'Could not load the application')}
        </Alert>
      ) : requestedRedirect !== null && requestedRedirect !== application.data.redirectUri ? (
        <Alert severity="error">
          {application.data.name} asked to send you to an address it did not register; nothing was
          shared.
        </Alert>
      ) : (
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Stack spacing={2}>
            <Typography variant="h2">{application.data.name}</Typography>
            {application.data.description ? (
              <Typography color="text.secondary">{application.data.description}</Typography>
            ) : null}
            <Typography>
              {application.data.name} asks for access to your account
              {username ? (
                <>
                  {' '}
                  <strong>{username}</strong>
                </>
              ) : null}
              . If you allow it, it can do everything you can until its token expires, and you go
              back to <code>{originOf(application.data.redirectUri)}</code>.
            </Typography>
            {session?.actualUser !== undefined ? (
              <Alert severity="info">
                You are logged in as this user by a platform administrator: applications cannot be
                authorized from such a session.
              </Alert>
            ) : null}
            {allow.isError ? (
              <Alert severity="error">{errorText(allow.error) ?? 'Could not authorize'}</Alert>
            ) : null}
            <Stack direction="row" spacing={1}>
              <Button
                variant="contained"
                disabled={allow.isPending || allow.isSuccess || session?.actualUser !== undefined}
                onClick={() => allow.mutate()}
              >
                Allow
              </Button>
              <Button
                disabled={allow.isPending || allow.isSuccess}
                onClick={() =>
                  leaveConsole(
                    oauthRedirect(application.data.redirectUri, { error: 'access_denied' }, state),
                  )
                }
              >
                Deny
              </Button>
            </Stack>
          </Stack>
        </Paper>
      )}
    </Box>
  );
};
