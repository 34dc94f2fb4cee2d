-- US sales tax: the rate (a percentage) an operator charges on the invoices of customers billed at
-- an address in a US state; the row '*' is the rate of every state without its own. No rate is
-- built in: where sales tax is due depends on the operator. Platform administrators set them
-- (PUT /billing/v1/admin/sales-tax).

CREATE TABLE "us_sales_tax_rate" (
  "state" text PRIMARY KEY CHECK ("state" ~ '^([A-Z]{2}|\*)$'),
  "rate_percent" numeric(6, 3) NOT NULL CHECK ("rate_percent" >= 0 AND "rate_percent" <= 100)
);
