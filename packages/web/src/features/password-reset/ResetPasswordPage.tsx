import { passwordProblem } from '@flotilla/shared/auth/credentials';
import { passwordsMismatchMessage } from '@flotilla/shared/users/profile';
import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type FormEvent, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { AuthFrame } from '../../ui/AuthFrame.js';
import { useResetPassword } from './api.js';

// /user/reset-password/:loginCode, the mailed link: a new password under the password rules,
// with its confirmation. Every session of the account ends, this tab's too.
export const ResetPasswordPage = () => {
  usePageTitle('Choose a new password');
  const { loginCode = '' } = useParams();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [touched, setTouched] = useState(false);
  const reset = useResetPassword(loginCode);
  const newProblem = passwordProblem(password);
  const confirmationProblem = confirmation !== password ? passwordsMismatchMessage : undefined;
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    setTouched(true);
    if (newProblem || confirmationProblem) return;
    reset.mutate(password);
  };
  if (reset.isSuccess) {
    return (
      <AuthFrame title="Password changed">
        <Stack spacing={2}>
          <Alert severity="success">
            Your password has been changed and every session of your account has been logged out.
          </Alert>
          <Button component={RouterLink} to="/login" variant="contained" size="large">
            Log in
          </Button>
        </Stack>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Choose a new password">
      <Box component="form" onSubmit={submit} noValidate>
        <Stack spacing={2}>
          {reset.isError ? (
            <Alert
              severity="error"
              action={
                <Button component={RouterLink} to="/password-reset" color="inherit" size="small">
                  New link
                </Button>
              }
            >
              {errorText(reset.error) ?? 'Could not change the password'}
            </Alert>
          ) : null}
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={touched && newProblem !== undefined}
            helperText={(touched ? newProblem : undefined) ?? '8 to 64 characters'}
            required
            autoFocus
          />
          <TextField
            label="Confirm new password"
            type="password"
            autoComplete="new-password"
            value={confirmation}
            onChange={(event) => setConfirmation(event.target.value)}
            error={touched && confirmationProblem !== undefined}
            helperText={touched ? confirmationProblem : undefined}
            required
          />
          <Button type="submit" variant="contained" size="large" disabled={reset.isPending}>
            {reset.isPending ? 'Saving…' : 'Set new password'}
          </Button>
          <Link component={RouterLink} to="/login" sx={{ textAlign: 'center' }}>
            Back to log in
          </Link>
        </Stack>
      </Box>
    </AuthFrame>
  );
};
