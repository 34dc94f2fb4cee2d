import { errorText } from '@flotilla/sdk/errors';
import { oauthRedirect } from '@flotilla/shared/auth/oauth';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { leaveConsole } from '../../ui/leave-console.js';
import { useSession } from '../../api/session/useSession.js';
import { type ConsentApplication, useAuthorizeApplication, useWhoami } from './api.js';

const originOf = (uri: string): string => {
  try {
    return new URL(uri).origin;
  } catch {
    return uri;
  }
};

// The application, who is signed in, and the allow and deny buttons.
export const Consent = ({ application }: { application: ConsentApplication }) => {
  const session = useSession();
  const [search] = useSearchParams();
  const state = search.get('state');
  const requestedRedirect = search.get('redirect_uri');
  const whoami = useWhoami();
  const allow = useAuthorizeApplication((answer) =>
    leaveConsole(oauthRedirect(answer.redirect_uri, { code: answer.code }, state)),
  );
  const request = {
    clientId: application.client_id,
    redirectUri: requestedRedirect,
    state,
    codeChallenge: search.get('code_challenge'),
    codeChallengeMethod: search.get('code_challenge_method'),
  };
  const username = whoami.data && 'username' in whoami.data ? whoami.data.username : null;
  const alreadyAuthorized = (application.oauth_application_authorization ?? []).length > 0;
  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Stack spacing={2}>
        <Typography variant="h2">{application.name}</Typography>
        {application.description ? (
          <Typography color="text.secondary">{application.description}</Typography>
        ) : null}
        {alreadyAuthorized ? (
          <Alert severity="info">
            You have already authorized {application.name}. Allow again to continue to it, or revoke
            it in{' '}
            <Link component={RouterLink} to="/preferences/access-tokens">
              Preferences → Access tokens
            </Link>
            .
          </Alert>
        ) : null}
        <Typography>
          {application.name} asks for access to your account
          {username ? (
            <>
              {' '}
              <strong>{username}</strong>
            </>
          ) : null}
          . If you allow it, it can do everything you can until its token expires, and you go back
          to <code>{originOf(application.redirect_uri)}</code>.
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
            onClick={() => allow.mutate(request)}
          >
            {alreadyAuthorized ? 'Allow again' : 'Allow'}
          </Button>
          <Button
            disabled={allow.isPending || allow.isSuccess}
            onClick={() =>
              leaveConsole(
                oauthRedirect(application.redirect_uri, { error: 'access_denied' }, state),
              )
            }
          >
            Deny
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
};
