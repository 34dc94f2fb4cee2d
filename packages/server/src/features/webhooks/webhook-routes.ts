import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  eventCatalogue,
  eventTypes,
  reservedEventTypes,
} from '@flotilla/shared/events/event-catalogue';
import { createWebhookInput, updateWebhookInput } from '@flotilla/shared/webhooks/webhook-input';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest, notFound } from '../../infra/errors/api-error.js';
import { maxRowId, parseBody } from '../../infra/http/validate.js';
import type { AddressCheck } from '../builder/pinned-request.js';
import { checkedAddress } from '../builder/pinned-request.js';
import { assertMayManageWebhooks } from './webhook-access.js';
import { webhookAddressMessages } from './webhook-sender.js';
import { newWebhookSecret } from './webhook-signing.js';
import {
  endpointColumns,
  endpointOf,
  findEndpoint,
  listDeliveries,
  listEndpoints,
} from './webhook-store.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

const id = z.coerce.number().int().min(1).max(maxRowId);
const organizationParams = z.object({ organization: id });
const endpointParams = organizationParams.extend({ endpoint: id });
const deliveryParams = endpointParams.extend({ delivery: id });
const deliveriesQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });

// Organization administrators' webhook endpoints (/webhooks/v1/organizations/:organization/...).
// `wake` tells the dispatchers that deliveries are due (a redelivery, an endpoint enabled again).
export const registerWebhookRoutes = (
  app: FastifyInstance,
  ctx: AppContext,
  deps: { addressCheck: AddressCheck; wake: () => Promise<void> },
): void => {
  const route = { config: { access: 'user' as const } };
  const organizationOf = async (request: { params: unknown; actor: Actor }) => {
    const { organization } = parseBody(organizationParams, request.params);
    await assertMayManageWebhooks(ctx, request.actor, organization);
    return organization;
  };
  const endpointOfRequest = async (request: { params: unknown; actor: Actor }) => {
    const params = parseBody(endpointParams, request.params);
    await assertMayManageWebhooks(ctx, request.actor, params.organization);
    const endpoint = await findEndpoint(ctx.db, params.organization, params.endpoint);
    if (!endpoint) throw notFound('No such webhook');
    return endpoint;
  };
  const checkUrl = async (url: string): Promise<void> => {
    await checkedAddress(new URL(url), deps.addressCheck, webhookAddressMessages);
  };

  app.get('/webhooks/v1/event-types', route, () => ({
    eventTypes: eventTypes.map((type) => ({ type, version: eventCatalogue[type].version })),
    reserved: reservedEventTypes,
  }));

  app.get('/webhooks/v1/organizations/:organization/endpoints', route, async (request) => ({
    endpoints: await listEndpoints(ctx.db, await organizationOf(request)),
  }));

  app.post('/webhooks/v1/organizations/:organization/endpoints', route, async (request, reply) => {
    const organization = await organizationOf(request);
    const input = parseBody(createWebhookInput, request.body);
    const fleet = input.fleet ?? null;
    if (fleet !== null) {
      const { rows } = await ctx.db.query(
        'SELECT 1 FROM "application" WHERE "id" = $1 AND "organization" = $2',
        [fleet, organization],
      );
      if (rows.length === 0) throw badRequest("The fleet is not one of this organization's");
    }
    await checkUrl(input.url);
    const secret = newWebhookSecret();
    const insert = (tx: Queryable) =>
      tx.query<Parameters<typeof endpointOf>[0]>(
        `INSERT INTO "webhook_endpoint" ("organization", "application", "url", "description", "events", "secret")
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${endpointColumns}`,
        [organization, fleet, input.url, input.description ?? '', input.events, secret],
      );
    const { rows } = await recordedTransaction(ctx.db, request, ctx.now, insert, {
      status: 201,
      organizationId: organization,
      ...(fleet === null ? {} : { fleetId: fleet }),
    });
    const row = rows[0];
    if (!row) throw new Error('webhook_endpoint insert returned nothing');
    // The only time the secret is shown.
    return reply.code(201).send({ endpoint: endpointOf(row), secret });
  });

  app.patch(
    '/webhooks/v1/organizations/:organization/endpoints/:endpoint',
    route,
    async (request) => {
      const endpoint = await endpointOfRequest(request);
      const input = parseBody(updateWebhookInput, request.body);
      if (input.url !== undefined) await checkUrl(input.url);
      const update = async (tx: Queryable) => {
        const { rows } = await tx.query<Parameters<typeof endpointOf>[0]>(
          `UPDATE "webhook_endpoint"
            SET "url" = coalesce($2, "url"), "events" = coalesce($3, "events"),
                "description" = coalesce($4, "description"),
                "is_enabled" = coalesce($5, "is_enabled"),
                "disabled_at" = CASE WHEN $5::boolean THEN NULL ELSE "disabled_at" END,
                "disabled_reason" = CASE WHEN $5::boolean THEN NULL ELSE "disabled_reason" END
          WHERE "id" = $1 RETURNING ${endpointColumns}`,
          [
            endpoint.id,
            input.url ?? null,
            input.events ?? null,
            input.description ?? null,
            input.isEnabled ?? null,
          ],
        );
        const row = rows[0];
        if (!row) throw notFound('No such webhook');
        return row;
      };
      const row = await recordedTransaction(ctx.db, request, ctx.now, update, {
        organizationId: endpoint.organization,
      });
      if (input.isEnabled === true) await deps.wake();
      return { endpoint: endpointOf(row) };
    },
  );

  app.delete(
    '/webhooks/v1/organizations/:organization/endpoints/:endpoint',
    route,
    async (request, reply) => {
      const endpoint = await endpointOfRequest(request);
      await recordedTransaction(
        ctx.db,
        request,
        ctx.now,
        (tx) => tx.query('DELETE FROM "webhook_endpoint" WHERE "id" = $1', [endpoint.id]),
        { status: 204, organizationId: endpoint.organization },
      );
      return reply.code(204).send();
    },
  );

  app.get(
    '/webhooks/v1/organizations/:organization/endpoints/:endpoint/deliveries',
    route,
    async (request) => {
      const endpoint = await endpointOfRequest(request);
      const { limit } = parseBody(deliveriesQuery, request.query);
      return { deliveries: await listDeliveries(ctx.db, endpoint.id, limit) };
    },
  );

  app.post(
    '/webhooks/v1/organizations/:organization/endpoints/:endpoint/deliveries/:delivery/redeliver',
    route,
    async (request) => {
      const endpoint = await endpointOfRequest(request);
      const { delivery } = parseBody(deliveryParams, request.params);
      const redeliver = async (tx: Queryable) => {
        const { rowCount } = await tx.query(
          `UPDATE "webhook_delivery" SET "status" = 'pending', "next_attempt_at" = $3, "attempts" = 0
            WHERE "id" = $1 AND "endpoint" = $2 AND "status" IN ('succeeded', 'failed')`,
          [delivery, endpoint.id, ctx.now()],
        );
        if (rowCount === 0) {
          throw badRequest('Only a delivery that succeeded or failed can be delivered again');
        }
      };
      await recordedTransaction(ctx.db, request, ctx.now, redeliver, {
        organizationId: endpoint.organization,
      });
      await deps.wake();
      return { redelivered: true };
    },
  );
};
