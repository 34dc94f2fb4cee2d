import { passwordResetLifetimeMinutes } from '@flotilla/shared/auth/account-mail';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { AuthFrame } from '../../ui/AuthFrame.js';
import { usePageTitle } from '../../ui/usePageTitle.js';

// /password-reset/success: what happens next.
export const PasswordResetSuccessPage = () => {
  usePageTitle('Reset password');
  return (
    <AuthFrame title="Check your e-mail">
      <Stack spacing={2}>
        <Alert severity="success">
          If an account has this address, a link to reset its password is on its way. It works once,
          within {passwordResetLifetimeMinutes} minutes.
        </Alert>
        <Typography color="text.secondary">
          No mail after a few minutes? Check your spam folder, or ask again.
        </Typography>
        <Link component={RouterLink} to="/password-reset" sx={{ textAlign: 'center' }}>
          Ask for another link
        </Link>
        <Link component={RouterLink} to="/login" sx={{ textAlign: 'center' }}>
          Back to log in
        </Link>
      </Stack>
    </AuthFrame>
  );
};
