import { describe, expect, it } from 'vitest';
import { noticesOf, type NoticeInput } from './notices.js';

const now = new Date('2026-06-01T00:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
const organization = (extra: Partial<NoticeInput>): NoticeInput => ({
  id: 1,
  name: 'Acme',
  is_frozen: false,
  has_past_due_invoice_since__date: null,
  organization_credit_notification: [],
  owns__credit_bundle: [],
  ...extra,
});

describe('the notices strip', () => {
  it('says nothing for an organization in good standing', () => {
    expect(noticesOf([organization({})], now)).toEqual([]);
  });

  it('warns under 30 days past due, counts down from 30 and says frozen at 60', () => {
    const [warning] = noticesOf(
      [organization({ has_past_due_invoice_since__date: daysAgo(3) })],
      now,
    );
    expect(warning).toMatchObject({ severity: 'warning', text: 'Acme has a past-due invoice.' });
    const [error] = noticesOf(
      [organization({ has_past_due_invoice_since__date: daysAgo(45) })],
      now,
    );
    expect(error).toMatchObject({
      severity: 'error',
      text: 'Acme has an invoice 45 days past due: it will be frozen in 15 days.',
      to: '/orgs/1/billing',
    });
    const [frozen] = noticesOf(
      [organization({ is_frozen: true, has_past_due_invoice_since__date: daysAgo(61) })],
      now,
    );
    expect(frozen?.text).toMatch(/^Acme is frozen/);
  });

  it('tells administrators credits are below their threshold', () => {
    const low = organization({
      organization_credit_notification: [{ is_sent_when_below__threshold: 10 }],
      owns__credit_bundle: [
        { total_balance: 4, payment_status: 'paid' },
        { total_balance: 50, payment_status: 'failed' },
      ],
    });
    expect(noticesOf([low], now)).toEqual([
      expect.objectContaining({ text: 'Acme is low on credits: 4 left.', to: '/orgs/1/credits' }),
    ]);
  });
});
