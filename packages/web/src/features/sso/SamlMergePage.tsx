import { errorText } from '@flotilla/sdk/errors';
import { samlSignInMessages } from '@flotilla/shared/sso/saml-sign-in';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { useProfile } from '../../api/session/profile-query.js';
import { useSession } from '../../api/session/useSession.js';
import { AuthFrame } from '../../ui/AuthFrame.js';
import { RedirectWithMessage } from '../../ui/RedirectWithMessage.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useFinalizeSaml } from './api-sign-in.js';
import { takeReturnUrl } from './return-url.js';

// /saml/callback/merge: the identity provider signed in someone whose e-mail an existing account
// has. The owner of that account, signed in, links it with both consents; from then on the
// provider signs them in.
export const SamlMergePage = () => {
  usePageTitle('Link your account');
  const [search] = useSearchParams();
  const location = useLocation();
  const session = useSession();
  const profile = useProfile();
  const code = search.get('code');
  const email = search.get('shouldMergeWith');
  const [linkConsent, setLinkConsent] = useState(false);
  const [signInConsent, setSignInConsent] = useState(false);
  const [target, setTarget] = useState<string | null>(null);
  const finalize = useFinalizeSaml();

  if (code === null) {
    return <RedirectWithMessage to="/login" message={samlSignInMessages.missingCode} />;
  }
  if (email === null) {
    return <RedirectWithMessage to="/login" message={samlSignInMessages.missingMergeTarget} />;
  }
  if (session === null || session.twoFactorRequired === true) {
    // Back here after logging in, with the same code.
    const here = `${location.pathname}${location.search}`;
    return (
      <RedirectWithMessage
        to={`/login?redirect=${encodeURIComponent(here)}`}
        message={samlSignInMessages.mergeRequiresLogin}
      />
    );
  }
  if (target !== null) return <Navigate to={target} replace />;
  if (profile.isPending) {
    return (
      <AuthFrame title="Link your account">
        <Typography role="status">Loading…</Typography>
      </AuthFrame>
    );
  }
  const ownEmail = profile.data?.email ?? '';
  if (ownEmail.toLowerCase() !== email.toLowerCase()) {
    return <RedirectWithMessage to="/login" message={samlSignInMessages.mergeEmailMismatch} />;
  }
  const link = () =>
    finalize.mutate({ code, merge: true }, { onSuccess: () => setTarget(takeReturnUrl()) });
  return (
    <AuthFrame title="Link your account">
      <Stack spacing={2}>
        <Typography>
          Your identity provider signed in <strong>{email}</strong>, the e-mail address of this
          account. Link them to sign in through your identity provider from now on.
        </Typography>
        {finalize.isError ? (
          <Alert severity="error">
            {errorText(finalize.error) ?? samlSignInMessages.invalidCode}
          </Alert>
        ) : null}
        <FormControlLabel
          control={
            <Checkbox
              checked={linkConsent}
              onChange={(event) => setLinkConsent(event.target.checked)}
            />
          }
          label="Link this account to my organization's identity provider"
        />
        <FormControlLabel
          control={
            <Checkbox
              checked={signInConsent}
              onChange={(event) => setSignInConsent(event.target.checked)}
            />
          }
          label="I understand that from now on only my organization's identity provider signs me in to this account (not my password), and that I cannot create API keys"
        />
        {!linkConsent || !signInConsent ? (
          <Typography variant="body2" color="text.secondary">
            {samlSignInMessages.consentRequired}
          </Typography>
        ) : null}
        <Button
          variant="contained"
          disabled={!linkConsent || !signInConsent || finalize.isPending}
          onClick={link}
        >
          {finalize.isPending ? 'Linking…' : 'Link accounts'}
        </Button>
      </Stack>
    </AuthFrame>
  );
};
