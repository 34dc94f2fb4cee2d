import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { Link as RouterLink, useLocation } from 'react-router';
import { useBillingNotices } from './api-notices.js';

// The navbar's notices strip (an installation that bills): past-due invoices, frozen
// organizations and low credits. Not shown on the identity provider pages.
export const BillingNotices = () => {
  const notices = useBillingNotices();
  const { pathname } = useLocation();
  if (pathname.startsWith('/identity-provider') || !notices.data) return null;
  return (
    <>
      {notices.data.map((notice) => (
        <Alert
          key={`${notice.organizationId}:${notice.to}`}
          severity={notice.severity}
          square
          action={
            <Button color="inherit" size="small" component={RouterLink} to={notice.to}>
              {notice.action}
            </Button>
          }
        >
          {notice.text}
        </Alert>
      ))}
    </>
  );
};
