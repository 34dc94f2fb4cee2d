import type { ResourceDefinition } from '../model-types.js';
import { createdAt, date, id, integer, modifiedAt, ref, text } from './field-kinds.js';
import { everyone } from './sql-helpers.js';

// The part of billing the SDK reads and writes through /v7: credit bundles (a POST is a purchase,
// features/billing/credit-purchase.ts fills in its price and payment) and low-credit notification
// thresholds. Plans go through /billing/v1 endpoints.
export const billingResources: Record<string, ResourceDefinition> = {
  // Billable features credits are bought for (e.g. device minutes).
  feature: {
    fields: {
      id,
      title: text({ readOnly: true }),
      slug: text({ readOnly: true }),
      billing_code: text({ readOnly: true }),
    },
    scope: { public: everyone },
    alternateKeys: [['slug']],
    readOnly: true,
  },
  credit_bundle: {
    fields: {
      id,
      created_at: createdAt,
      modified_at: modifiedAt,
      payment_status: text({ readOnly: true }),
      is_created_by__user: ref('user', undefined, { readOnly: true }),
      is_for__feature: ref('feature', undefined, { required: true, createOnly: true }),
      belongs_to__organization: ref('organization', 'owns__credit_bundle', {
        required: true,
        createOnly: true,
      }),
      unit_cost: integer({ readOnly: true }),
      original_quantity: integer({ required: true, createOnly: true }),
      available_balance: integer({ readOnly: true }),
      total_cost: integer({ readOnly: true }),
      total_balance: integer({ readOnly: true }),
      expires_on__date: date({ readOnly: true }),
      is_associated_with__invoice_id: text({ readOnly: true }),
      error_message: text({ readOnly: true }),
    },
    scope: { organization: (row) => `${row}."belongs_to__organization"` },
  },
  organization_credit_notification: {
    alternateKeys: [['organization', 'owns_credit_notification_for__feature']],
    fields: {
      id,
      created_at: createdAt,
      organization: ref(
        'organization',
        ['organization_credit_notification', 'organization__owns_credit_notification_for__feature'],
        { required: true, createOnly: true },
      ),
      owns_credit_notification_for__feature: ref(
        'feature',
        ['organization_credit_notification', 'organization__owns_credit_notification_for__feature'],
        { required: true, createOnly: true },
      ),
      is_sent_when_below__threshold: integer({ required: true }),
    },
    synonyms: { feature: 'owns_credit_notification_for__feature' },
    scope: { organization: (row) => `${row}."organization"` },
  },
};
