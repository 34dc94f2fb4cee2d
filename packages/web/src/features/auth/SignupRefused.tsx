import {
  signupClosedMessage,
  signupInvitationOnlyMessage,
} from '@flotilla/shared/auth/signup-mode';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { Link as RouterLink } from 'react-router';
import { AuthFrame } from '../../ui/AuthFrame.js';

// Why this deployment does not let this visitor sign up (closed, or invitations only and no
// invitation in the link), or undefined when it does.
export const signupRefusal = (mode: string, invited: boolean): string | undefined =>
  mode === 'closed'
    ? signupClosedMessage
    : mode === 'invitation' && !invited
      ? signupInvitationOnlyMessage
      : undefined;

export const SignupRefused = ({ refusal }: { refusal: string }) => (
  <AuthFrame title="Create your account">
    <Stack spacing={2}>
      <Alert severity="info">{refusal}</Alert>
      <Link component={RouterLink} to="/login" sx={{ textAlign: 'center' }}>
        Already have an account? Log in
      </Link>
    </Stack>
  </AuthFrame>
);
