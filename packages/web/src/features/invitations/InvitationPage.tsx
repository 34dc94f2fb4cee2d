import { errorText } from '@flotilla/sdk/errors';
import {
  decodeInvitationToken,
  type InvitationKind,
} from '@flotilla/shared/invitations/invitation-token';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router';
import { useToasts } from '../../ui/toasts.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { AuthFrame } from '../../ui/AuthFrame.js';
import { useSession } from '../../api/session/useSession.js';
import { useAcceptInvitation } from './api.js';
import { invitationPaths } from './invitation-paths.js';

// /organization/invitation/:token and /invitation/:token: a signed-in user
// accepts and goes to the organization or fleet; a guest signs in (coming back here) or signs up
// with the invitation carried through; an invalid or expired token says so with a way back.
const InvitationPage = ({ kind }: { kind: InvitationKind }) => {
  usePageTitle('Invitation');
  const { token = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const toasts = useToasts();
  const session = useSession();
  const signedIn = session !== null && session.twoFactorRequired !== true;
  const claims = decodeInvitationToken(token);
  // Read once: whether the link had expired when it was opened.
  const [openedAt] = useState(() => Date.now());
  const paths = invitationPaths[kind];
  const accept = useAcceptInvitation(paths.acceptPath, token, (answer) => {
    const target = answer[kind];
    toasts.show('success', `You joined ${target?.name ?? claims?.name ?? ''}`, {
      afterNavigation: true,
    });
    void navigate(target ? `${paths.landing}/${target.id}` : paths.landing, { replace: true });
  });
  const back = (
    <Button component={RouterLink} to="/" variant="outlined">
      Go to the console
    </Button>
  );
  if (claims === null || claims.kind !== kind) {
    return (
      <AuthFrame title="Invitation">
        <Stack spacing={2}>
          <Alert severity="error">This invitation link is not valid.</Alert>
          {back}
        </Stack>
      </AuthFrame>
    );
  }
  if (claims.exp * 1000 <= openedAt) {
    return (
      <AuthFrame title="Invitation">
        <Stack spacing={2}>
          <Alert severity="error">
            This invitation has expired. Ask for a new one from an administrator of {claims.name}.
          </Alert>
          {back}
        </Stack>
      </AuthFrame>
    );
  }
  const here = `${location.pathname}${location.search}`;
  const signup = new URLSearchParams({ invitation: token, redirect: paths.landing });
  if (claims.email !== null) signup.set('email', claims.email);
  return (
    <AuthFrame title="Invitation">
      <Stack spacing={2}>
        <Typography>
          You have been invited to join the {paths.noun} <strong>{claims.name}</strong>.
        </Typography>
        {accept.isError ? (
          <Alert severity="error">{errorText(accept.error) ?? 'Could not accept'}</Alert>
        ) : null}
        {signedIn ? (
          <Button variant="contained" disabled={accept.isPending} onClick={() => accept.mutate()}>
            Accept invitation
          </Button>
        ) : (
          <>
            <Button
              variant="contained"
              component={RouterLink}
              to={`/login?redirect=${encodeURIComponent(here)}`}
            >
              Log in to accept
            </Button>
            <Button variant="outlined" component={RouterLink} to={`/signup?${signup.toString()}`}>
              Sign up to accept
            </Button>
          </>
        )}
        {accept.isError ? back : null}
      </Stack>
    </AuthFrame>
  );
};

export const OrganizationInvitationPage = () => <InvitationPage kind="organization" />;
export const FleetInvitationPage = () => <InvitationPage kind="application" />;
