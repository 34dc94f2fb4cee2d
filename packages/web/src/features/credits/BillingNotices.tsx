import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useLocation } from 'react-router';
import { useClient } from '../../api/client.js';
import { useSession } from '../../api/session/useSession.js';
import { polling } from '../../ui/polling.js';
import { noticesOf } from './notices.js';
import { creditKeys } from './query-keys.js';

const useNotices = () => {
  const client = useClient();
  const userId = useSession()?.userId ?? 0;
  return useQuery({
    queryKey: creditKeys.notices(userId),
    enabled: userId > 0,
    ...polling(),
    queryFn: async () =>
      noticesOf(
        await client.pine.get({
          resource: 'organization',
          options: {
            $select: ['id', 'name', 'is_frozen', 'has_past_due_invoice_since__date'],
            $filter: {
              organization_membership: { $any: { $alias: 'm', $expr: { m: { user: userId } } } },
            },
            $expand: {
              organization_credit_notification: { $select: ['is_sent_when_below__threshold'] },
              owns__credit_bundle: { $select: ['total_balance', 'payment_status'] },
            },
          },
        }),
        new Date(),
      ),
  });
};

// The navbar's notices strip (an installation that bills): past-due invoices, frozen
// organizations and low credits. Not shown on the identity provider pages.
export const BillingNotices = () => {
  const notices = useNotices();
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
