import type { CreditPaymentStatus } from '@flotilla/shared/credits/credits';
import type { DateTime, OptionalToOne, ToOne } from './field-types.js';
import type { Organization } from './organization.js';
import type { User } from './user.js';

// v7 feature: a billable feature (device:any, device:microservices, member:any, ...).
export type Feature = {
  id: number;
  title: string;
  slug: string;
  billing_code: string;
};

// v7 credit_bundle: credits bought for a feature (a POST is a purchase).
export type CreditBundle = {
  id: number;
  created_at: DateTime;
  modified_at: DateTime;
  payment_status: CreditPaymentStatus;
  is_created_by__user: OptionalToOne<User>;
  is_for__feature: ToOne<Feature>;
  belongs_to__organization: ToOne<Organization>;
  unit_cost: number;
  original_quantity: number;
  available_balance: number;
  total_cost: number;
  total_balance: number;
  expires_on__date: DateTime;
  is_associated_with__invoice_id: string | null;
  error_message: string | null;
};

export type CreditBundleWrite = {
  belongs_to__organization: number;
  is_for__feature: number;
  original_quantity: number;
};

// v7 organization_credit_notification: mail the administrators below this many credits.
export type OrganizationCreditNotification = {
  id: number;
  created_at: DateTime;
  organization: ToOne<Organization>;
  owns_credit_notification_for__feature: ToOne<Feature>;
  is_sent_when_below__threshold: number;
};

export type OrganizationCreditNotificationWrite = {
  organization: number;
  owns_credit_notification_for__feature: number;
  is_sent_when_below__threshold: number;
};
