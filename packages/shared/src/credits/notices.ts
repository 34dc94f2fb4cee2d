import { countsTowardBalance } from './credits.js';
import { pastDueNotice } from './freezing.js';

export type NoticeInput = {
  id: number;
  name: string;
  is_frozen: boolean;
  has_past_due_invoice_since__date: string | null;
  organization_credit_notification: { is_sent_when_below__threshold: number }[];
  owns__credit_bundle: { total_balance: number; payment_status: string }[];
};

export type Notice = {
  organizationId: number;
  severity: 'warning' | 'error';
  text: string;
  // Where the notice's action goes.
  to: string;
  action: string;
};

// The notices strip's lines for the user's organizations: a past-due invoice (a warning, an
// error counting down from the 30th day), a frozen organization, credits below the threshold the
// administrators set (they alone read credits).
export const noticesOf = (organizations: readonly NoticeInput[], now: Date): Notice[] =>
  organizations.flatMap((organization): Notice[] => {
    const notices: Notice[] = [];
    const billing = `/orgs/${organization.id}/billing`;
    const since = organization.has_past_due_invoice_since__date;
    const pastDue = pastDueNotice(since === null ? null : new Date(since), now);
    if (organization.is_frozen || pastDue?.severity === 'frozen') {
      notices.push({
        organizationId: organization.id,
        severity: 'error',
        text: `${organization.name} is frozen: an invoice is over 60 days past due. Its devices get no new releases until it is paid.`,
        to: billing,
        action: 'Update billing details',
      });
    } else if (pastDue?.severity === 'error') {
      notices.push({
        organizationId: organization.id,
        severity: 'error',
        text: `${organization.name} has an invoice ${pastDue.daysPastDue} days past due: it will be frozen in ${pastDue.daysUntilFreeze} days.`,
        to: billing,
        action: 'Pay now',
      });
    } else if (pastDue) {
      notices.push({
        organizationId: organization.id,
        severity: 'warning',
        text: `${organization.name} has a past-due invoice.`,
        to: billing,
        action: 'View invoices',
      });
    }
    const threshold =
      organization.organization_credit_notification[0]?.is_sent_when_below__threshold;
    if (threshold !== undefined) {
      const balance = organization.owns__credit_bundle
        .filter((bundle) => countsTowardBalance(bundle.payment_status))
        .reduce((sum, bundle) => sum + bundle.total_balance, 0);
      if (balance < threshold) {
        notices.push({
          organizationId: organization.id,
          severity: 'warning',
          text: `${organization.name} is low on credits: ${balance} left.`,
          to: `/orgs/${organization.id}/credits`,
          action: 'Add credits',
        });
      }
    }
    return notices;
  });
