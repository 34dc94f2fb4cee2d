import { emailProblem, passwordProblem } from '@flotilla/shared/auth/credentials';
import { decodeInvitationToken } from '@flotilla/shared/invitations/invitation-token';
import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type FormEvent, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { usePublicConfig } from '../../api/config/api.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { AuthFrame } from '../../ui/AuthFrame.js';
import { freeDevicesNote } from './billing-copy.js';
import { useSignup } from './api.js';
import { RecaptchaWithReminder } from '../../ui/RecaptchaWithReminder.js';
import { signupRefusal, SignupRefused } from './SignupRefused.js';

export const SignupPage = () => {
  usePageTitle('Sign up');
  const [email, setEmail] = useState(() => {
    // An e-mail in the query is used only when it looks like an address.
    const fromQuery = new URLSearchParams(window.location.search).get('email') ?? '';
    return emailProblem(fromQuery) ? '' : fromQuery;
  });
  // An invitation link's token (InvitationPage): signing up with it joins its organization or
  // fleet; the server checks it.
  const [invitation] = useState(() => {
    const token = new URLSearchParams(window.location.search).get('invitation') ?? '';
    const claims = decodeInvitationToken(token);
    return claims === null ? null : { token, claims };
  });
  const [password, setPassword] = useState('');
  // Never pre-ticked: the user opts in.
  const [newsletter, setNewsletter] = useState(false);
  const [touched, setTouched] = useState(false);
  const config = usePublicConfig();
  // With a site key the server checks reCAPTCHA answers; without one, the built-in adapter's.
  const siteKey = config.data?.recaptchaSiteKey ?? undefined;
  const [recaptchaAnswer, setRecaptchaAnswer] = useState<string | undefined>(undefined);
  const [recaptchaRound, setRecaptchaRound] = useState(0);
  const location = useLocation();
  // The server used up the answer: a new attempt needs a new one.
  const signup = useSignup(() => {
    setRecaptchaAnswer(undefined);
    setRecaptchaRound((round) => round + 1);
  });
  const emailError = touched ? emailProblem(email) : undefined;
  const passwordError = touched ? passwordProblem(password) : undefined;
  const captchaMissing = siteKey !== undefined && recaptchaAnswer === undefined;
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    setTouched(true);
    if (emailProblem(email) || passwordProblem(password) || captchaMissing) return;
    signup.mutate({
      email: email.trim(),
      password,
      recaptchaAnswer,
      useRecaptcha: siteKey !== undefined,
      hasDisabledNewsletter: !newsletter,
      ...(invitation === null
        ? {}
        : { invitationType: invitation.claims.kind, invitationToken: invitation.token }),
      redirect: new URLSearchParams(location.search).get('redirect'),
    });
  };
  // FLOTILLA_SIGNUP: said up front rather than after a refused attempt.
  const refusal = signupRefusal(config.data?.signup ?? 'open', invitation !== null);
  if (refusal !== undefined) return <SignupRefused refusal={refusal} />;
  return (
    <AuthFrame title="Create your account" subtitle={freeDevicesNote(config.data)}>
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
          {config.data?.newsletterEnabled === true ? (
            <FormControlLabel
              control={
                <Checkbox
                  checked={newsletter}
                  onChange={(event) => setNewsletter(event.target.checked)}
                />
              }
              label="Send me product news"
            />
          ) : null}
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
