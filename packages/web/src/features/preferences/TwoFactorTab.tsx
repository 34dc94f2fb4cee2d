import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTwoFactor } from './api-two-factor.js';
import { useSession } from '../../api/session/useSession.js';
import { RecoveryCodes } from './RecoveryCodes.js';
import { TwoFactorSetup } from './TwoFactorSetup.js';
import { useFreshAuthentication } from '../reauthentication/useFreshAuthentication.js';

// Disabling asks for the password.
const DisableDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const twoFactor = useTwoFactor();
  const titleId = useId();
  const [password, setPassword] = useState('');
  const disable = useMutation({
    meta: { inlineError: true },
    mutationFn: () => twoFactor.disable(password),
    onSuccess: onClose,
  });
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          disable.mutate();
        }}
      >
        <DialogTitle id={titleId}>Disable two-factor authentication</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <DialogContentText>
              Logging in will need only your password. Your recovery codes stop working.
            </DialogContentText>
            {disable.isError ? (
              <Alert severity="error">{errorText(disable.error) ?? 'Could not disable'}</Alert>
            ) : null}
            <TextField
              label="Password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              autoFocus
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={disable.isPending}>
            Cancel
          </Button>
          <Button
            type="submit"
            color="error"
            variant="contained"
            disabled={password === '' || disable.isPending}
          >
            Disable
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};

// Preferences → Two-factor authentication: set up (QR code, key, first code), then recovery codes
// shown once; once enabled, regenerate the codes or disable with the password. Enabled is read
// from the session token (the claim is present once two-factor is on).
export const TwoFactorTab = () => {
  const twoFactor = useTwoFactor();
  const session = useSession();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
  const freshAuthentication = useFreshAuthentication();
  const regenerate = useMutation({
    meta: { inlineError: true },
    mutationFn: () => freshAuthentication.run(() => twoFactor.createRecoveryCodes()),
    onSuccess: setCodes,
  });
  const enabled = session?.twoFactorRequired !== undefined;

  if (codes !== null) return <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;
  if (!enabled) {
    return <TwoFactorSetup onEnabled={setCodes} freshAuthentication={freshAuthentication} />;
  }
  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
      <Alert severity="success">Two-factor authentication is enabled.</Alert>
      <Typography>
        New recovery codes replace the ones you have: the old codes stop working.
      </Typography>
      {regenerate.isError ? (
        <Alert severity="error">
          {errorText(regenerate.error) ?? 'Could not make new recovery codes'}
        </Alert>
      ) : null}
      <Stack direction="row" spacing={1}>
        <Button
          variant="outlined"
          onClick={() => regenerate.mutate()}
          disabled={regenerate.isPending}
        >
          Regenerate recovery codes
        </Button>
        <Button color="error" onClick={() => setDisabling(true)}>
          Disable two-factor authentication
        </Button>
      </Stack>
      {disabling ? <DisableDialog open onClose={() => setDisabling(false)} /> : null}
      {freshAuthentication.dialog}
    </Stack>
  );
};
