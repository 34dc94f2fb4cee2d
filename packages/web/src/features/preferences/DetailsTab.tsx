import { errorText } from '@flotilla/sdk/errors';
import { passwordProblem } from '@flotilla/shared/auth/credentials';
import { passwordsMismatchMessage } from '@flotilla/shared/users/profile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { LoadingScreen } from '../../api/session/guards.js';
import { useSession } from '../../api/session/useSession.js';
import { DeleteAccount } from './DeleteAccount.js';
import { EmailSection } from './EmailSection.js';
import { useFreshAuthentication } from '../reauthentication/useFreshAuthentication.js';
import { useChangePassword, useLogoutOtherSessions, useProfile } from './api-account.js';

// The failure of "log out other sessions", in the console's words.
const logoutOthersFailed = 'Could not log out your other sessions';

const OtherSessions = () => {
  const logoutOthers = useLogoutOtherSessions();
  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start', maxWidth: 420 }}>
      <Typography variant="h6" component="h2">
        Sessions
      </Typography>
      <Typography color="text.secondary">
        Log out everywhere else: other browsers and the command line tool must log in again. API
        keys keep working.
      </Typography>
      {logoutOthers.isSuccess ? (
        <Alert severity="success">Your other sessions have been logged out.</Alert>
      ) : null}
      {logoutOthers.isError ? (
        <Alert severity="warning">
          {logoutOthersFailed}: {errorText(logoutOthers.error) ?? 'An error has occurred'}
        </Alert>
      ) : null}
      <Button
        variant="outlined"
        onClick={() => logoutOthers.mutate()}
        disabled={logoutOthers.isPending}
      >
        Log out other sessions
      </Button>
    </Stack>
  );
};

// Preferences → Account details: the e-mail address and its change, and a password change.
export const DetailsTab = () => {
  const session = useSession();
  const userId = session?.userId;
  const profile = useProfile(userId);
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const hasPassword = profile.data?.has_password_set !== false;
  const freshAuthentication = useFreshAuthentication();
  const change = useChangePassword(() => {
    setCurrent('');
    setPassword('');
    setConfirmation('');
    setSubmitted(false);
    void profile.refetch();
  }, freshAuthentication.run);
  const newProblem = passwordProblem(password);
  const confirmationProblem = confirmation !== password ? passwordsMismatchMessage : undefined;
  const currentProblem = hasPassword && current === '' ? 'Current password is required' : undefined;
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    setSubmitted(true);
    if (newProblem || confirmationProblem || currentProblem) return;
    change.mutate({ ...(hasPassword ? { currentPassword: current } : {}), password });
  };
  return (
    <Stack spacing={3}>
      {profile.isPending ? <LoadingScreen label="Loading account" /> : null}
      {profile.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void profile.refetch()}>
              Retry
            </Button>
          }
        >
          Could not load your account: {errorText(profile.error) ?? 'An error has occurred'}
        </Alert>
      ) : null}
      {profile.data ? (
        <Typography color="text.secondary">
          Username <strong>{profile.data.username}</strong> · account created{' '}
          {new Date(profile.data.created_at).toLocaleDateString()}
        </Typography>
      ) : null}
      {profile.data && userId !== undefined ? (
        <EmailSection userId={userId} profile={profile.data} />
      ) : null}
      <Stack spacing={2} component="form" onSubmit={submit} noValidate sx={{ maxWidth: 420 }}>
        <Typography variant="h6" component="h2">
          {hasPassword ? 'Change password' : 'Set a password'}
        </Typography>
        {change.isSuccess ? (
          <Alert severity="success">
            Password changed. Your other sessions have been logged out.
          </Alert>
        ) : null}
        {change.isError ? (
          <Alert severity="error">
            {errorText(change.error) ?? 'Could not change the password'}
          </Alert>
        ) : null}
        {hasPassword ? (
          <TextField
            label="Current password"
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={(event) => setCurrent(event.target.value)}
            error={submitted && currentProblem !== undefined}
            helperText={submitted ? currentProblem : undefined}
          />
        ) : null}
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={submitted && newProblem !== undefined}
          helperText={submitted ? newProblem : undefined}
        />
        <TextField
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          value={confirmation}
          onChange={(event) => setConfirmation(event.target.value)}
          error={submitted && confirmationProblem !== undefined}
          helperText={submitted ? confirmationProblem : undefined}
        />
        <Box>
          <Button type="submit" variant="contained" disabled={change.isPending}>
            {hasPassword ? 'Change password' : 'Set password'}
          </Button>
        </Box>
      </Stack>
      <OtherSessions />
      <DeleteAccount />
      {freshAuthentication.dialog}
    </Stack>
  );
};
