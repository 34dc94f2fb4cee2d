import { cliLoginTarget } from '@flotilla/shared/auth/cli-login-target';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useParams, useNavigate } from 'react-router';
import { useSessionToken, useWhoami } from '../../api/session/api-session.js';
import { RedirectWithMessage } from '../../ui/RedirectWithMessage.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { isAdmin, useSession } from '../../api/session/useSession.js';
import { useCliLoginConfig } from './api.js';

// /login/cli/<callback>: `balena login --web` waits on a local
// server for this page to post the session token (shared/auth/cli-login-target.ts says how).
// The post is a plain form submission, so the browser goes on to the CLI's own answer page; the
// server's CSP lets only this page post to that origin (features/console on the server). A
// target that is not localhost, a private address or one of the operator's networks (GET
// /config's cliLoginAllowedNetworks) goes to / with the reason.
export const CliLoginPage = () => {
  usePageTitle('Authorize the command-line tool');
  const params = useParams();
  const config = useCliLoginConfig();
  // Without the operator's networks (not loaded, or not answered) only the defaults apply.
  if (config.isPending) return <Skeleton width={240} aria-label="Loading" />;
  const target = cliLoginTarget(params['*'] ?? '', config.data?.cliLoginAllowedNetworks ?? []);
  if (!target.ok) return <RedirectWithMessage to="/" message={target.reason} />;
  return <Consent url={target.url} origin={target.origin} />;
};

const Consent = ({ url, origin }: { url: string; origin: string }) => {
  const session = useSession();
  const navigate = useNavigate();
  const whoami = useWhoami();
  const token = useSessionToken();
  const username = whoami.data && 'username' in whoami.data ? whoami.data.username : null;
  return (
    <Box sx={{ maxWidth: 640 }}>
      <Typography variant="h1" sx={{ mb: 2 }}>
        Authorize the command-line tool
      </Typography>
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Stack spacing={2}>
          {whoami.isPending ? (
            <Skeleton width={240} aria-label="Loading" />
          ) : whoami.isError ? (
            <Alert severity="error">Could not load your account; you can still authorize.</Alert>
          ) : (
            <Typography>
              Signed in as <strong>{username ?? 'this account'}</strong>.
            </Typography>
          )}
          <Typography>
            The command-line tool waiting at <code>{origin}</code> will receive a session token for
            your account and can then do everything you can, until the token expires.
          </Typography>
          {isAdmin(session) ? (
            <Alert severity="warning">
              You are signed in with a platform administrator account. The command-line tool will
              act with administrator rights over every account; prefer an ordinary account for
              everyday work.
            </Alert>
          ) : null}
          <Box
            component="form"
            method="post"
            action={url}
            aria-label="Authorize the command-line tool"
            sx={{ display: 'flex', gap: 1 }}
          >
            <input type="hidden" name="token" value={token} />
            <Button type="submit" variant="contained" disabled={token === ''}>
              Authorize
            </Button>
            <Button onClick={() => void navigate('/')}>Cancel</Button>
          </Box>
        </Stack>
      </Paper>
    </Box>
  );
};
