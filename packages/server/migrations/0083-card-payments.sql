-- Card payments through a provider (Stripe): the provider's customer and default payment method
-- of a billing account, each invoice's payment attempt (its payment id, the method it charged
-- and why it failed, so that a new method is tried but a declined one is not charged again), and
-- the provider events already handled (a webhook delivered twice acts once).

ALTER TABLE "billing_account"
  ADD COLUMN "provider_customer_id" text UNIQUE,
  ADD COLUMN "provider_payment_method_id" text;

ALTER TABLE "invoice"
  ADD COLUMN "provider_payment_id" text,
  ADD COLUMN "provider_payment_method_id" text,
  ADD COLUMN "payment_error" text;
CREATE INDEX "invoice_provider_payment_idx" ON "invoice" ("provider_payment_id")
  WHERE "provider_payment_id" IS NOT NULL;

CREATE TABLE "billing_provider_event" (
  "id" text PRIMARY KEY,
  "received_at" timestamptz NOT NULL
);
