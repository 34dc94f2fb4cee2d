import { errorText } from '@flotilla/sdk/errors';
import { samlSignInMessages } from '@flotilla/shared/sso/saml-sign-in';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink, Navigate, useSearchParams } from 'react-router';
import {
  reauthConfirmedMessage,
  takeReauthReturnPath,
} from '../../api/session/reauth-return-path.js';
import { AuthFrame } from '../../ui/AuthFrame.js';
import { useToasts } from '../../ui/toasts.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useSamlReauthenticate } from './api.js';

// /saml/callback/reauth: the identity provider confirmed the signed-in user again (the
// re-authentication dialog's "Continue with your identity provider"); the code renews this
// session and the user goes back to the page they were on.
export const SamlReauthPage = () => {
  usePageTitle('Confirm your identity');
  const [search] = useSearchParams();
  const code = search.get('code');
  const refused = search.get('saml_error');
  const confirm = useSamlReauthenticate();
  const toasts = useToasts();
  const sent = useRef(false);
  // Read once: the kept path is removed as it is read.
  const [returnPath] = useState(takeReauthReturnPath);
  const [confirmed, setConfirmed] = useState(false);

  useEffect(() => {
    if (code === null || sent.current) return;
    sent.current = true;
    confirm.mutate(code, {
      onSuccess: () => {
        toasts.show('success', reauthConfirmedMessage);
        setConfirmed(true);
      },
    });
  }, [code, confirm, toasts]);

  if (confirmed) return <Navigate to={returnPath} replace />;
  const problem =
    refused ??
    (code === null
      ? samlSignInMessages.missingCode
      : confirm.isError
        ? (errorText(confirm.error) ?? samlSignInMessages.invalidCode)
        : null);
  return (
    <AuthFrame title="Confirm your identity">
      {problem === null ? (
        <Typography role="status">Confirming your identity…</Typography>
      ) : (
        <Stack spacing={2}>
          <Alert severity="error">{problem}</Alert>
          <Button component={RouterLink} to={returnPath} variant="contained">
            Back
          </Button>
        </Stack>
      )}
    </AuthFrame>
  );
};
