import { emailProblem, passwordProblem } from '@flotilla/shared/auth/credentials';
import {
  signupClosedMessage,
  signupInvitationOnlyMessage,
} from '@flotilla/shared/auth/signup-mode';
import { decodeInvitationToken } from '@flotilla/shared/invitations/invitation-token';
import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { useClient } from '../../api/client.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { AuthFrame } from '../../ui/AuthFrame.js';
import { captchaResponse } from './captcha.js';
import { RecaptchaField } from './RecaptchaField.js';
import { rememberProfileStep } from '../signup-profile/profile-step.js';

export const SignupPage = () => {
  usePageTitle('Sign up');
  const client = useClient();
  const [email, setEmail] = useState(() => {
    // An e-mail in the query is used only when it looks like an address (seed 000 section 5).
    const fromQuery = new URLSearchParams(window.location.search).get('email') ?? '';
    return emailProblem(fromQuery) ? '' : fromQuery;
  });
  // An invitation link's token (InvitationPage): signing up with it joins its organization or
  // fleet (seed 000 section 3.3); the server checks it.
  const [invitation] = useState(() => {
    const token = new URLSearchParams(window.location.search).get('invitation') ?? '';
    const claims = decodeInvitationToken(token);
    return claims === null ? null : { token, claims };
  });
  const [password, setPassword] = useState('');
  const [newsletter, setNewsletter] = useState(true);
  const [touched, setTouched] = useState(false);
  const config = useQuery({
    queryKey: ['public-config'],
    queryFn: () => client.config(),
    staleTime: Infinity,
  });
  // With a site key the server checks reCAPTCHA answers; without one, the built-in adapter's.
  const siteKey = config.data?.recaptchaSiteKey ?? undefined;
  const [recaptchaAnswer, setRecaptchaAnswer] = useState<string | undefined>(undefined);
  const [recaptchaRound, setRecaptchaRound] = useState(0);
  const location = useLocation();
  const signup = useMutation({
    // The screen shows this error itself.
    meta: { inlineError: true },
    mutationFn: async () => {
      const session = await client.auth.register({
        email: email.trim(),
        password,
        captchaResponse: siteKey === undefined ? await captchaResponse() : recaptchaAnswer,
        hasDisabledNewsletter: !newsletter,
        ...(invitation === null
          ? {}
          : { invitationType: invitation.claims.kind, invitationToken: invitation.token }),
      });
      // Verification (when required), then the profile, then where they were going.
      rememberProfileStep(session.userId, new URLSearchParams(location.search).get('redirect'));
    },
    // The server used up the answer: a new attempt needs a new one.
    onError: () => {
      setRecaptchaAnswer(undefined);
      setRecaptchaRound((round) => round + 1);
    },
  });
  const emailError = touched ? emailProblem(email) : undefined;
  const passwordError = touched ? passwordProblem(password) : undefined;
  const captchaMissing = siteKey !== undefined && recaptchaAnswer === undefined;
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    setTouched(true);
    if (emailProblem(email) || passwordProblem(password) || captchaMissing) return;
    signup.mutate();
  };
  // FLOTILLA_SIGNUP: said up front rather than after a refused attempt.
  const mode = config.data?.signup ?? 'open';
  const refusal =
    mode === 'closed'
      ? signupClosedMessage
      : mode === 'invitation' && invitation === null
        ? signupInvitationOnlyMessage
        : undefined;
  if (refusal !== undefined) {
    return (
      <AuthFrame title="Create your account">
        <Stack spacing={2}>
          <Alert severity="info">{refusal}</Alert>
          <Link component={RouterLink} to="/login" sx={{ textAlign: 'center' }}>
            Already have an account? Log in
          </Link>
        </Stack>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Create your account" subtitle="Your first 10 devices are always free.">
      <Box component="form" onSubmit={submit} noValidate>
        <Stack spacing={2}>
          {invitation === null ? null : (
            <Alert severity="info">
              Signing up accepts your invitation to {invitation.claims.name}.
            </Alert>
          )}
          {signup.isError ? (
            <Alert severity="error">{errorText(signup.error) ?? 'Could not sign up'}</Alert>
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
          <TextField
            label="Password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={Boolean(passwordError)}
            helperText={passwordError ?? '8 to 64 characters'}
            required
          />
          <FormControlLabel
            control={
              <Checkbox
                checked={newsletter}
                onChange={(event) => setNewsletter(event.target.checked)}
              />
            }
            label="Send me product news"
          />
          {siteKey === undefined ? null : (
            <Box>
              <RecaptchaField
                key={recaptchaRound}
                siteKey={siteKey}
                onAnswer={setRecaptchaAnswer}
              />
              {touched && captchaMissing ? (
                <FormHelperText error sx={{ textAlign: 'center' }}>
                  Confirm that you are not a robot
                </FormHelperText>
              ) : null}
            </Box>
          )}
          <Button
            type="submit"
            variant="contained"
            size="large"
            // Until /config tells whether a captcha is needed.
            disabled={signup.isPending || config.isPending}
          >
            {signup.isPending ? 'Creating account…' : 'Sign up'}
          </Button>
          <Link component={RouterLink} to="/login" sx={{ textAlign: 'center' }}>
            Already have an account? Log in
          </Link>
        </Stack>
      </Box>
    </AuthFrame>
  );
};
