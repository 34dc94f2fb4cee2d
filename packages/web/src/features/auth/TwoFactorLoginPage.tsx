import { errorText } from '@flotilla/sdk/errors';
import {
  authenticatorCodeProblem,
  normalizeTwoFactorCode,
  twoFactorCodeLength,
  twoFactorErrors,
} from '@flotilla/shared/auth/two-factor';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { AuthFrame } from '../../ui/AuthFrame.js';
import { useLogout } from '../../api/session/api-session.js';
import { type TwoFactorMode, useTwoFactorLogin } from './api.js';

// The login's second step: a code from the authenticator app, sent
// as soon as its 6 digits are typed, or a recovery code. Passing replaces the session's token;
// the route's guard then moves on.
export const TwoFactorLoginPage = () => {
  usePageTitle('Two-factor authentication');
  const logout = useLogout();
  const navigate = useNavigate();
  const [mode, setMode] = useState<TwoFactorMode>('authenticator');
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  // A refused code is typed again from scratch.
  const pass = useTwoFactorLogin(() => setCode(''));

  const send = (typed: string): void => {
    const found =
      mode === 'authenticator'
        ? authenticatorCodeProblem(typed)
        : normalizeTwoFactorCode(typed) === ''
          ? 'required'
          : undefined;
    setProblem(found === undefined ? undefined : twoFactorErrors[found].message);
    if (found === undefined) pass.mutate({ mode, code: typed });
  };

  const change = (typed: string): void => {
    setCode(typed);
    // An authenticator code is sent as soon as it has its 6 characters.
    if (
      mode === 'authenticator' &&
      !pass.isPending &&
      normalizeTwoFactorCode(typed).length === twoFactorCodeLength
    ) {
      send(typed);
    }
  };

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    send(code);
  };

  const switchMode = (): void => {
    setMode(mode === 'authenticator' ? 'recovery' : 'authenticator');
    setCode('');
    setProblem(undefined);
    pass.reset();
  };

  const shown = problem ?? (pass.isError ? (errorText(pass.error) ?? 'Could not verify') : null);
  return (
    <AuthFrame
      title="Two-factor authentication"
      subtitle={
        mode === 'authenticator'
          ? 'Enter the 6-digit code your authenticator app shows.'
          : 'Enter one of the recovery codes you saved. Each works once.'
      }
    >
      <Box component="form" onSubmit={submit} noValidate>
        <Stack spacing={2}>
          {shown !== null ? <Alert severity="error">{shown}</Alert> : null}
          <TextField
            key={mode}
            label={mode === 'authenticator' ? 'Authentication code' : 'Recovery code'}
            value={code}
            onChange={(event) => change(event.target.value)}
            autoComplete="one-time-code"
            slotProps={{
              htmlInput:
                mode === 'authenticator'
                  ? { inputMode: 'numeric', maxLength: 7 }
                  : { maxLength: 64 },
            }}
            disabled={pass.isPending}
            required
            autoFocus
          />
          <Button type="submit" variant="contained" size="large" disabled={pass.isPending}>
            {pass.isPending ? 'Verifying…' : 'Verify'}
          </Button>
          <Box sx={{ display: 'flex', justifyContent: 'space-between' }}>
            <Link component="button" type="button" onClick={switchMode}>
              {mode === 'authenticator' ? 'Use a recovery code' : 'Use your authenticator app'}
            </Link>
            <Link
              component="button"
              type="button"
              onClick={() => {
                logout();
                void navigate('/login');
              }}
            >
              Log out
            </Link>
          </Box>
        </Stack>
      </Box>
    </AuthFrame>
  );
};
