import { errorText } from '@flotilla/sdk/errors';
import {
  authenticatorCodeProblem,
  normalizeTwoFactorCode,
  otpauthUri,
  twoFactorErrors,
  twoFactorQrSize,
} from '@flotilla/shared/auth/two-factor';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTwoFactor, useWhoami } from './api-two-factor.js';
import { productName } from '../../ui/usePageTitle.js';
import { QrCode } from './QrCode.js';

// Setting up an authenticator: a new secret as a QR code and as text, then
// the first code from the app enables two-factor. `onEnabled` gets the recovery codes made
// right after.
export const TwoFactorSetup = ({
  onEnabled,
  freshAuthentication,
}: {
  onEnabled: (codes: string[]) => void;
  // The tab's re-authentication: runs an action, asking the person to confirm who they are
  // when the server wants it, and the dialog that asks.
  freshAuthentication: { run<T>(action: () => Promise<T>): Promise<T>; dialog: ReactNode };
}) => {
  const twoFactor = useTwoFactor();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const whoami = useWhoami();
  const setup = useMutation({
    meta: { inlineError: true },
    mutationFn: () => freshAuthentication.run(() => twoFactor.setupKey()),
  });
  const enable = useMutation({
    meta: { inlineError: true },
    mutationFn: async (typed: string) => {
      await twoFactor.verify(normalizeTwoFactorCode(typed));
      // The code is used up: only the codes' creation is retried after a re-authentication.
      return freshAuthentication.run(() => twoFactor.createRecoveryCodes());
    },
    onSuccess: onEnabled,
  });

  if (setup.data === undefined) {
    return (
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography>
          Two-factor authentication asks for a code from an authenticator app on your phone each
          time you log in, besides your password.
        </Typography>
        {setup.isError ? (
          <Alert severity="error">{errorText(setup.error) ?? 'Could not start the setup'}</Alert>
        ) : null}
        <Button variant="contained" onClick={() => setup.mutate()} disabled={setup.isPending}>
          Set up two-factor authentication
        </Button>
        {freshAuthentication.dialog}
      </Stack>
    );
  }

  const account =
    whoami.data && 'email' in whoami.data ? (whoami.data.email ?? whoami.data.username) : '';
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const found = authenticatorCodeProblem(code);
    setProblem(found === undefined ? undefined : twoFactorErrors[found].message);
    if (found === undefined) enable.mutate(code);
  };
  // The password dialog stays outside the form: React events bubble through portals.
  return (
    <>
      {freshAuthentication.dialog}
      <Stack spacing={2} component="form" onSubmit={submit} noValidate>
        <Typography>
          Scan this QR code with your authenticator app, or type the key in it, then enter the
          6-digit code the app shows.
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ alignItems: 'center' }}>
          <QrCode
            value={otpauthUri(productName, account, setup.data)}
            size={twoFactorQrSize}
            label="QR code of the authenticator key"
          />
          <Box>
            <Typography variant="caption" color="text.secondary">
              Key
            </Typography>
            <Typography
              aria-label="Authenticator key"
              sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}
            >
              {setup.data}
            </Typography>
          </Box>
        </Stack>
        {problem !== undefined || enable.isError ? (
          <Alert severity="error">
            {problem ?? errorText(enable.error) ?? 'Could not enable two-factor authentication'}
          </Alert>
        ) : null}
        <TextField
          label="Authentication code"
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="one-time-code"
          slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 7 } }}
          sx={{ maxWidth: 240 }}
        />
        <Box>
          <Button type="submit" variant="contained" disabled={enable.isPending}>
            {enable.isPending ? 'Enabling…' : 'Enable'}
          </Button>
        </Box>
      </Stack>
    </>
  );
};
