import { noticesOf } from '@flotilla/shared/credits/notices';
import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { useSession } from '../../api/session/useSession.js';
import { polling } from '../../ui/polling.js';
import { shellKeys } from './query-keys.js';

// The notices strip: the user's organizations with their past-due date, frozen flag and (for
// administrators, who alone read them) credits and low-credit threshold.
export const useBillingNotices = () => {
  const client = useClient();
  const userId = useSession()?.userId ?? 0;
  return useQuery({
    queryKey: shellKeys.billingNotices(userId),
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
