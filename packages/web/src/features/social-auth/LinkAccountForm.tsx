import { errorText } from '@flotilla/sdk/errors';
import {
  type SocialProvider,
  socialProviderLabels,
} from '@flotilla/shared/social-auth/social-providers';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useConfirmLink } from './api.js';

// An account already holds the provider's verified address: it is linked only once that
// account proves itself with its password (never by the address alone).
export const LinkAccountForm = ({
  provider,
  pending,
  onSignedIn,
}: {
  provider: SocialProvider;
  pending: { linkToken: string; email: string; hasPassword: boolean };
  onSignedIn: () => void;
}) => {
  const label = socialProviderLabels[provider];
  const [password, setPassword] = useState('');
  const confirm = useConfirmLink(provider);
  if (!pending.hasPassword) {
    return (
      <Stack spacing={2}>
        <Alert severity="info">
          An account with {pending.email} exists, without a password. Sign in to it another way,
          then link your {label} account in Preferences → Profile.
        </Alert>
        <Button component={RouterLink} to="/login" variant="contained">
          Back to login
        </Button>
      </Stack>
    );
  }
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    confirm.mutate(
      { linkToken: pending.linkToken, password },
      { onSuccess: (answer) => (answer.outcome === 'signed-in' ? onSignedIn() : undefined) },
    );
  };
  return (
    <Stack spacing={2} component="form" onSubmit={submit} noValidate>
      <Typography>
        An account with {pending.email} already exists. Enter its password to link your {label}{' '}
        account to it; you can then sign in with either.
      </Typography>
      {confirm.isError ? (
        <Alert severity="error">{errorText(confirm.error) ?? 'Could not link the account'}</Alert>
      ) : null}
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        required
        autoFocus
      />
      <Button type="submit" variant="contained" disabled={confirm.isPending || !password}>
        {confirm.isPending ? 'Linking…' : `Link and log in`}
      </Button>
      <Button component={RouterLink} to="/login">
        Cancel
      </Button>
    </Stack>
  );
};
