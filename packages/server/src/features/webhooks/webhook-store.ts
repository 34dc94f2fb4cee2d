import type { WebhookDelivery, WebhookEndpoint } from '@flotilla/shared/webhooks/webhook-input';
import type { Queryable } from '../../infra/db/database.js';

const iso = (value: Date | null): string | null => (value === null ? null : value.toISOString());

type EndpointRow = {
  id: number;
  organization: number;
  application: number | null;
  url: string;
  description: string;
  events: string[];
  is_enabled: boolean;
  disabled_at: Date | null;
  disabled_reason: string | null;
  created_at: Date;
};

export const endpointColumns = `"id", "organization", "application", "url", "description",
  "events", "is_enabled", "disabled_at", "disabled_reason", "created_at"`;

export const endpointOf = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  organization: row.organization,
  fleet: row.application,
  url: row.url,
  description: row.description,
  events: row.events,
  isEnabled: row.is_enabled,
  disabledAt: iso(row.disabled_at),
  disabledReason: row.disabled_reason,
  createdAt: row.created_at.toISOString(),
});

export const listEndpoints = async (
  db: Queryable,
  organization: number,
): Promise<WebhookEndpoint[]> => {
  const { rows } = await db.query<EndpointRow>(
    `SELECT ${endpointColumns} FROM "webhook_endpoint" WHERE "organization" = $1 ORDER BY "id"`,
    [organization],
  );
  return rows.map(endpointOf);
};

export const findEndpoint = async (
  db: Queryable,
  organization: number,
  id: number,
): Promise<WebhookEndpoint | undefined> => {
  const { rows } = await db.query<EndpointRow>(
    `SELECT ${endpointColumns} FROM "webhook_endpoint" WHERE "organization" = $1 AND "id" = $2`,
    [organization, id],
  );
  const row = rows[0];
  return row === undefined ? undefined : endpointOf(row);
};

type DeliveryRow = {
  id: number;
  delivery_uuid: string;
  event_uuid: string;
  type: string;
  status: WebhookDelivery['status'];
  attempts: number;
  created_at: Date;
  next_attempt_at: Date;
  last_attempt_at: Date | null;
  response_status: number | null;
  response_body: string | null;
  last_error: string | null;
};

export const listDeliveries = async (
  db: Queryable,
  endpoint: number,
  limit: number,
): Promise<WebhookDelivery[]> => {
  const { rows } = await db.query<DeliveryRow>(
    `SELECT d."id"::integer AS "id", d."delivery_uuid", o."event_uuid", o."type", d."status",
            d."attempts", d."created_at", d."next_attempt_at", d."last_attempt_at",
            d."response_status", d."response_body", d."last_error"
       FROM "webhook_delivery" d JOIN "event_outbox" o ON o."id" = d."event"
      WHERE d."endpoint" = $1 ORDER BY d."id" DESC LIMIT $2`,
    [endpoint, limit],
  );
  return rows.map((row) => ({
    id: row.id,
    deliveryId: row.delivery_uuid,
    eventId: row.event_uuid,
    eventType: row.type,
    status: row.status,
    attempts: row.attempts,
    createdAt: row.created_at.toISOString(),
    nextAttemptAt:
      row.status === 'pending' || row.status === 'delivering'
        ? row.next_attempt_at.toISOString()
        : null,
    lastAttemptAt: iso(row.last_attempt_at),
    responseStatus: row.response_status,
    responseBody: row.response_body,
    lastError: row.last_error,
  }));
};
