import { emailProblem } from '@flotilla/shared/auth/credentials';
import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { useChangeEmail, usePendingEmail, useResendVerification } from './api-account.js';

type Profile = { email: string | null; is_verified: boolean; has_password_set: boolean };

// Preferences → Account details: the address, whether it is verified (with a resend), and its
// change (the new address and the password are required; the button stays disabled without a
// password; an account without one sets it first, below).
export const EmailSection = ({ userId, profile }: { userId: number; profile: Profile }) => {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const pending = usePendingEmail(userId);
  const change = useChangeEmail(userId, () => {
    setPassword('');
    setTouched(false);
  });
  const resend = useResendVerification(userId);
  const problem = emailProblem(email);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    setTouched(true);
    if (problem) return;
    change.mutate({ email: email.trim(), password });
  };
  return (
    <Stack spacing={2} sx={{ maxWidth: 420 }}>
      <Box>
        <Typography variant="subtitle2" color="text.secondary">
          E-mail
        </Typography>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography aria-label="E-mail">{profile.email ?? '—'}</Typography>
          {profile.is_verified ? (
            <Chip size="small" color="success" label="Verified" />
          ) : (
            <Chip size="small" color="warning" label="Not verified" />
          )}
        </Stack>
      </Box>
      {profile.is_verified ? null : (
        <Alert
          severity="warning"
          action={
            <Button
              color="inherit"
              size="small"
              onClick={() => resend.mutate()}
              disabled={resend.isPending || resend.isSuccess}
            >
              Resend link
            </Button>
          }
        >
          {resend.isSuccess
            ? 'A new verification link is on its way.'
            : resend.isError
              ? (errorText(resend.error) ?? 'Could not send a new link')
              : 'Your e-mail address is not verified yet: open the link we mailed you.'}
        </Alert>
      )}
      <Stack spacing={2} component="form" onSubmit={submit} noValidate>
        <Typography variant="h6" component="h2">
          Change e-mail
        </Typography>
        <PendingAddress
          address={pending.data ?? null}
          failed={pending.isError}
          retry={() => void pending.refetch()}
        />
        {change.data?.status === 'changed' ? (
          <Alert severity="success">
            Your e-mail address is now {change.data.email}. We sent it a verification link.
          </Alert>
        ) : null}
        {change.isError ? (
          <Alert severity="error">
            {errorText(change.error) ?? 'Could not change the e-mail address'}
          </Alert>
        ) : null}
        {profile.has_password_set ? null : (
          <Alert severity="info">
            Set a password below first: changing the address asks for it.
          </Alert>
        )}
        <TextField
          label="New e-mail"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={touched && problem !== undefined}
          helperText={touched ? problem : undefined}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <Box>
          <Button
            type="submit"
            variant="contained"
            disabled={change.isPending || password === '' || !profile.has_password_set}
          >
            Change e-mail
          </Button>
        </Box>
      </Stack>
    </Stack>
  );
};

// The new address waiting for its link, from the server (so it survives a reload); nothing while
// it loads or when there is none.
const PendingAddress = ({
  address,
  failed,
  retry,
}: {
  address: string | null;
  failed: boolean;
  retry: () => void;
}) => {
  if (failed) {
    return (
      <Alert
        severity="warning"
        action={
          <Button color="inherit" size="small" onClick={retry}>
            Retry
          </Button>
        }
      >
        Could not check for a new address waiting for verification.
      </Alert>
    );
  }
  if (address === null) return null;
  return (
    <Alert severity="info">
      We sent a verification link to <strong>{address}</strong>. Your address changes once you open
      it.
    </Alert>
  );
};
