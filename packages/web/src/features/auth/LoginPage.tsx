import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type FormEvent, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { AuthFrame } from '../../ui/AuthFrame.js';
import { usePublicConfig } from '../../api/config/api.js';
import { freeDevicesNote } from './billing-copy.js';
import { useLogin } from './api.js';
import { SocialButtons } from '../social-auth/SocialButtons.js';

export const LoginPage = () => {
  usePageTitle('Log in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useLogin();
  const config = usePublicConfig();
  const location = useLocation();
  // A refused SAML sign-in, or a social sign-in that could not start, comes back here with its
  // reason.
  const query = new URLSearchParams(location.search);
  const samlError = query.get('saml_error');
  const socialError = query.get('social_error');
  const redirect = query.get('redirect');
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    login.mutate({ email: email.trim(), password });
  };
  return (
    <AuthFrame title="Log in" subtitle={freeDevicesNote(config.data)}>
      <Box component="form" onSubmit={submit} noValidate>
        <Stack spacing={2}>
          {samlError ? <Alert severity="error">{samlError}</Alert> : null}
          {socialError ? <Alert severity="error">{socialError}</Alert> : null}
          {login.isError ? (
            <Alert severity="error">{errorText(login.error) ?? 'Could not log in'}</Alert>
          ) : null}
          <TextField
            label="E-mail"
            type="email"
            autoComplete="username"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            required
            autoFocus
          />
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            required
          />
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={login.isPending || !email || !password}
          >
            {login.isPending ? 'Logging in…' : 'Log in'}
          </Button>
          <SocialButtons />
          <Link
            component={RouterLink}
            to={redirect ? `/saml?redirect=${encodeURIComponent(redirect)}` : '/saml'}
          >
            Enterprise login (SSO)
          </Link>
          <Box sx={{ display: 'flex', justifyContent: 'space-between' }}>
            <Link component={RouterLink} to="/password-reset">
              Forgot password?
            </Link>
            <Link component={RouterLink} to="/signup">
              Sign up
            </Link>
          </Box>
        </Stack>
      </Box>
    </AuthFrame>
  );
};
