import { emailProblem } from '@flotilla/shared/auth/credentials';
import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { Navigate, Link as RouterLink, useNavigate, useParams } from 'react-router';
import { usePublicConfig } from '../../api/config/api.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { AuthFrame } from '../../ui/AuthFrame.js';
import { RecaptchaWithReminder } from '../../ui/RecaptchaWithReminder.js';
import { useRequestPasswordReset } from './api.js';
import { PasswordResetSuccessPage } from './PasswordResetSuccessPage.js';

// /password-reset: asks for a reset link by e-mail, then goes to
// /password-reset/success. The answer is the same for every address, so the page says "if".
export const PasswordResetRequestPage = () => {
  usePageTitle('Reset password');
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const config = usePublicConfig();
  const siteKey = config.data?.recaptchaSiteKey ?? undefined;
  const [recaptchaAnswer, setRecaptchaAnswer] = useState<string | undefined>(undefined);
  const [recaptchaRound, setRecaptchaRound] = useState(0);
  const request = useRequestPasswordReset({
    onSuccess: () => void navigate('/password-reset/success'),
    // The server used up the captcha answer: a new attempt needs a new one.
    onError: () => {
      setRecaptchaAnswer(undefined);
      setRecaptchaRound((round) => round + 1);
    },
  });
  const emailError = touched ? emailProblem(email) : undefined;
  const captchaMissing = siteKey !== undefined && recaptchaAnswer === undefined;
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    setTouched(true);
    if (emailProblem(email) || captchaMissing) return;
    request.mutate({ email: email.trim(), useRecaptcha: siteKey !== undefined, recaptchaAnswer });
  };
  return (
    <AuthFrame title="Reset your password">
      <Box component="form" onSubmit={submit} noValidate>
        <Stack spacing={2}>
          <Typography color="text.secondary">
            Enter the e-mail address of your account: we will send you a link to choose a new
            password.
          </Typography>
          {request.isError ? (
            <Alert severity="error">
              {errorText(request.error) ?? 'Could not send the reset link'}
            </Alert>
          ) : null}
          {config.isError ? (
            <Alert severity="error">
              Could not load the server settings:{' '}
              {errorText(config.error) ?? 'An error has occurred'}
            </Alert>
          ) : null}
          <TextField
            label="E-mail"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={Boolean(emailError)}
            helperText={emailError}
            required
            autoFocus
          />
          {siteKey === undefined ? null : (
            <RecaptchaWithReminder
              key={recaptchaRound}
              siteKey={siteKey}
              onAnswer={setRecaptchaAnswer}
              missing={touched && captchaMissing}
            />
          )}
          <Button
            type="submit"
            variant="contained"
            size="large"
            // Until /config tells whether a captcha is needed.
            disabled={request.isPending || config.isPending}
          >
            {request.isPending ? 'Sending…' : 'Send reset link'}
          </Button>
          <Link component={RouterLink} to="/login" sx={{ textAlign: 'center' }}>
            Back to log in
          </Link>
        </Stack>
      </Box>
    </AuthFrame>
  );
};

// /password-reset and /password-reset/success share one route (the entry chunk holds the table).
export const PasswordResetRoute = () => {
  const { step } = useParams();
  if (step === undefined) return <PasswordResetRequestPage />;
  return step === 'success' ? <PasswordResetSuccessPage /> : <Navigate to="/404" replace />;
};
