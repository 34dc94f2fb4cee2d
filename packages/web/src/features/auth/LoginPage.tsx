import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type FormEvent, useState } from 'react';
import { Link as RouterLink } from 'react-router';
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
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    login.mutate({ email: email.trim(), password });
  };
  return (
    <AuthFrame title="Log in" subtitle={freeDevicesNote(config.data)}>
      <Box component="form" onSubmit={submit} noValidate>
        <Stack spacing={2}>
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
          {/* Single sign-on comes with its pages: the console links only
              to routes it has. */}
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
