import { errorText } from '@flotilla/sdk/errors';
import { ssoIdentifierProblem } from '@flotilla/shared/sso/identity-provider-rules';
import { samlSignInMessages } from '@flotilla/shared/sso/saml-sign-in';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useLocation, useParams } from 'react-router';
import { AuthFrame } from '../../ui/AuthFrame.js';
import { RedirectWithMessage } from '../../ui/RedirectWithMessage.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useStartSaml } from './api-sign-in.js';
import { keepReturnUrl } from './return-url.js';

// /saml asks for the organization's SSO identifier; /saml/:ssoIdentifier starts at once. Either
// way the browser leaves for the identity provider, keeping where the user was going.
export const SamlLoginPage = () => {
  usePageTitle('Enterprise login');
  const { ssoIdentifier } = useParams();
  const location = useLocation();
  const redirect = new URLSearchParams(location.search).get('redirect');
  const start = useStartSaml();
  const started = useRef(false);
  const [identifier, setIdentifier] = useState('');
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (ssoIdentifier === undefined || started.current) return;
    started.current = true;
    keepReturnUrl(redirect);
    start.mutate(ssoIdentifier);
  }, [ssoIdentifier, redirect, start]);

  if (ssoIdentifier !== undefined) {
    if (start.isError) {
      return (
        <RedirectWithMessage
          to={`/saml${location.search}`}
          message={errorText(start.error) ?? samlSignInMessages.unknownIdentifier}
        />
      );
    }
    return (
      <AuthFrame title="Enterprise login">
        <Typography role="status">Redirecting to your identity provider…</Typography>
      </AuthFrame>
    );
  }

  const value = identifier.trim().toLowerCase();
  const problem = ssoIdentifierProblem(value);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    setTouched(true);
    if (problem !== undefined) return;
    keepReturnUrl(redirect);
    start.mutate(value);
  };
  return (
    <AuthFrame title="Enterprise login">
      <Box component="form" onSubmit={submit} noValidate>
        <Stack spacing={2}>
          <Typography color="text.secondary">
            Sign in through your organization&apos;s identity provider.
          </Typography>
          {start.isError ? (
            <Alert severity="error">
              {errorText(start.error) ?? samlSignInMessages.unknownIdentifier}
            </Alert>
          ) : null}
          <TextField
            label="SSO identifier"
            value={identifier}
            onChange={(event) => setIdentifier(event.target.value)}
            onBlur={() => setTouched(true)}
            error={touched && problem !== undefined}
            helperText={touched ? problem : 'Your organization administrator can tell you'}
            required
            autoFocus
          />
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={start.isPending || value.length === 0}
          >
            {start.isPending ? 'Redirecting…' : 'Continue'}
          </Button>
          <Link component={RouterLink} to={`/login${location.search}`}>
            Log in with e-mail and password
          </Link>
        </Stack>
      </Box>
    </AuthFrame>
  );
};
