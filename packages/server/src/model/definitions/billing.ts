import type { ResourceDefinition } from '../model-types.js';
import { createdAt, date, id, integer, modifiedAt, ref, text } from './field-kinds.js';
import { everyone } from './sql-helpers.js';

// The part of billing the SDK reads through /v7 (organization.credits); purchases and plans go
// through /billing/v1 endpoints.
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
      is_for__feature: ref('feature', undefined, { readOnly: true }),
      belongs_to__organization: ref('organization', 'owns__credit_bundle', { readOnly: true }),
      unit_cost: integer({ readOnly: true }),
      original_quantity: integer({ readOnly: true }),
      available_balance: integer({ readOnly: true }),
      total_cost: integer({ readOnly: true }),
      total_balance: integer({ readOnly: true }),
      expires_on__date: date({ readOnly: true }),
      is_associated_with__invoice_id: text({ readOnly: true }),
      error_message: text({ readOnly: true }),
    },
    scope: { organization: (row) => `${row}."belongs_to__organization"` },
    readOnly: true,
  },
};
