import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { Link as RouterLink, useLocation } from 'react-router';
import { useSession } from '../../api/session/useSession.js';
import {
  passwordOverLimitMessage,
  useMustChangePassword,
} from '../../api/session/password-limit.js';

const changePath = '/preferences/details';

// Asks for a new password after a login with one over the length limit, until it is changed.
export const PasswordLimitBanner = () => {
  const userId = useSession()?.userId;
  const mustChange = useMustChangePassword(userId);
  const { pathname } = useLocation();
  if (!mustChange) return null;
  const onChangePage = pathname === changePath || pathname === '/preferences';
  return (
    <Alert
      severity="warning"
      square
      action={
        onChangePage ? undefined : (
          <Button color="inherit" size="small" component={RouterLink} to={changePath}>
            Change password
          </Button>
        )
      }
    >
      {passwordOverLimitMessage}
    </Alert>
  );
};
