import type { Database, Queryable } from '../../infra/db/database.js';
import type { ClaimedDelivery } from './delivery-claim.js';
import type { WebhookAnswer } from './webhook-sender.js';

// The wait before each retry after a failed attempt: nine attempts over about 23 hours, then the
// delivery has failed and its endpoint is disabled.
export const webhookRetryDelaysMs = [
  30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000,
] as const;

// Told, inside the transaction that disables the endpoint, so its notice commits with it.
export type EndpointDisabled = (
  tx: Queryable,
  endpoint: { id: number; organization: number; url: string; reason: string },
) => Promise<void>;

export const recordSuccess = async (
  db: Queryable,
  delivery: ClaimedDelivery,
  answer: WebhookAnswer,
  now: Date,
): Promise<void> => {
  await db.query(
    `UPDATE "webhook_delivery"
        SET "status" = 'succeeded', "delivered_at" = $2, "response_status" = $3,
            "response_body" = $4, "last_error" = NULL
      WHERE "id" = $1 AND "status" = 'delivering' AND "attempts" = $5`,
    [delivery.id, now, answer.status, answer.body, delivery.attempts],
  );
};

// A failed attempt: retried after the next delay, or, after the last, failed for good with its
// endpoint disabled (deliveries of a device wait behind it, so an endpoint that cannot take one
// for a day takes none) and the organization's administrators told.
export const recordFailure = async (
  db: Database,
  delivery: ClaimedDelivery,
  outcome: { answer: WebhookAnswer | undefined; error: string },
  now: Date,
  deps: { onDisabled: EndpointDisabled },
): Promise<void> => {
  const delay = webhookRetryDelaysMs[delivery.attempts - 1];
  const status = outcome.answer?.status ?? null;
  const body = outcome.answer?.body ?? null;
  if (delay !== undefined) {
    await db.query(
      `UPDATE "webhook_delivery"
          SET "status" = 'pending', "response_status" = $2, "response_body" = $3, "last_error" = $4,
              "next_attempt_at" = $5
        WHERE "id" = $1 AND "status" = 'delivering' AND "attempts" = $6`,
      [
        delivery.id,
        status,
        body,
        outcome.error,
        new Date(now.getTime() + delay),
        delivery.attempts,
      ],
    );
    return;
  }
  await db.transaction(async (tx) => {
    const { rowCount } = await tx.query(
      `UPDATE "webhook_delivery"
          SET "status" = 'failed', "response_status" = $2, "response_body" = $3, "last_error" = $4
        WHERE "id" = $1 AND "status" = 'delivering' AND "attempts" = $5`,
      [delivery.id, status, body, outcome.error, delivery.attempts],
    );
    if (rowCount === 0) return;
    const reason = `Delivery ${delivery.deliveryUuid} failed for a day (last: ${outcome.error})`;
    const disabled = await tx.query(
      `UPDATE "webhook_endpoint" SET "is_enabled" = false, "disabled_at" = $2, "disabled_reason" = $3
        WHERE "id" = $1 AND "is_enabled" RETURNING "id"`,
      [delivery.endpoint, now, reason],
    );
    if (disabled.rowCount === 0) return;
    await deps.onDisabled(tx, {
      id: delivery.endpoint,
      organization: delivery.organization,
      url: delivery.url,
      reason,
    });
  });
};
