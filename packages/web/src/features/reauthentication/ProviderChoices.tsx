import { errorText } from '@flotilla/sdk/errors';
import { socialProviderLabels } from '@flotilla/shared/social-auth/social-providers';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useLocation } from 'react-router';
import { type LinkedWays, type ReauthVia, useStartProviderReauth } from './api.js';

// "Continue with GitHub / Google / your identity provider": the accounts linked to this one
// confirm the identity instead of a password. The page leaves for the provider and comes back.
export const ProviderChoices = ({
  linked,
  loading,
  failed,
  hasPassword,
}: {
  linked: LinkedWays | undefined;
  loading: boolean;
  failed: boolean;
  hasPassword: boolean;
}) => {
  const start = useStartProviderReauth();
  const location = useLocation();
  const go = (via: ReauthVia) =>
    start.mutate({ via, returnPath: `${location.pathname}${location.search}` });
  if (loading) {
    return hasPassword ? null : (
      <CircularProgress size={24} aria-label="Loading the ways to confirm" />
    );
  }
  if (failed || !linked) {
    return hasPassword ? null : (
      <Alert severity="error">Could not load the ways to confirm your identity</Alert>
    );
  }
  const none = linked.social.length === 0 && !linked.saml;
  if (none) {
    return hasPassword ? null : (
      <Alert severity="info">
        Your account has no password and no linked sign-in account: set a password through
        &quot;Forgot password&quot; on the login page, then try again.
      </Alert>
    );
  }
  const busy = start.isPending || start.isSuccess;
  return (
    <Stack spacing={1}>
      <Typography variant="body2" color="text.secondary">
        {hasPassword
          ? 'Or confirm through an account linked to yours:'
          : 'Confirm through the account you sign in with:'}
      </Typography>
      {start.isError ? (
        <Alert severity="error">
          {errorText(start.error) ?? 'Could not start the confirmation'}
        </Alert>
      ) : null}
      {linked.social.map((provider) => (
        <Button
          key={provider}
          variant="outlined"
          disabled={busy}
          onClick={() => go({ kind: 'social', provider })}
        >
          Continue with {socialProviderLabels[provider]}
        </Button>
      ))}
      {linked.saml ? (
        <Button variant="outlined" disabled={busy} onClick={() => go({ kind: 'saml' })}>
          Continue with your identity provider
        </Button>
      ) : null}
    </Stack>
  );
};
