import { type AuditEvent, auditSecretMask } from '@flotilla/shared/audit-log/audit-entry';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database, Queryable } from '../../infra/db/database.js';
import { recordRequestEvent } from './audit-events.js';

// Routes that change nothing worth a record, or whose changes are recorded where they happen:
// /v7 (each row, in its write's transaction), the logins, and the device's own traffic (state
// reports, logs, pings) and the console's telemetry, which would drown the log.
const unrecorded = new Set([
  'POST /v7/*',
  'PATCH /v7/*',
  'PUT /v7/*',
  'DELETE /v7/*',
  'POST /v7/$batch',
  'POST /login_',
  'PATCH /login_',
  'POST /user/v1/refresh-token',
  'PATCH /device/v3/state',
  'POST /device/v2/:uuid/logs',
  'POST /device/v2/:uuid/log-stream',
  'POST /supervisor/ping',
  'POST /error-reports/v1',
  'POST /analytics/v1/events',
  'POST /oauth/token',
  'PUT /release-asset/v1/uploads/:uuid/:part',
  'POST /git/:owner/:repo/git-upload-pack',
  // A rollout plan's preview writes nothing.
  'POST /rollouts/v1/fleets/:fleet/rollout-plan',
]);

const changing = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length <= 64 ? value : undefined;
const id = (value: unknown): number | undefined => {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' &&
    Number.isSafeInteger(number) &&
    number > 0 &&
    number < 2 ** 31
    ? number
    : undefined;
};
const field = (source: unknown, name: string): unknown =>
  typeof source === 'object' && source !== null && name in source
    ? Object.entries(source).find(([key]) => key === name)?.[1]
    : undefined;

// The device or fleet a route acts on, from its parameters or the few body fields that name one
// (balena's supervisor API: uuid, deviceId, appId). Nothing else of the body is kept: it may hold
// passwords, codes or keys.
const placeOf = (request: FastifyRequest) => {
  const from = (name: string): unknown => field(request.params, name) ?? field(request.body, name);
  const fleet = request.routeOptions.url?.startsWith('/application/:id')
    ? id(field(request.params, 'id'))
    : id(from('appId'));
  return { deviceUuid: text(from('uuid')), deviceId: id(from('deviceId')), fleetId: fleet };
};

// A route's parameters as recorded: one that carries a credential (an invitation's token, a
// code) reads as the mask.
const secretParameter = /token|secret|password|code|key/i;
const recordedParams = (params: unknown): Record<string, unknown> =>
  typeof params === 'object' && params !== null
    ? Object.fromEntries(
        Object.entries(params).map(([name, value]) => [
          name,
          secretParameter.test(name) ? auditSecretMask : value,
        ]),
      )
    : {};

// The kind of record a route's change makes: keys minted, devices registered and actions sent to
// devices have kinds of their own, so the log can be filtered for them; the rest are requests.
// (A key's revocation is a /v7 delete of its api_key row.)
const deviceActionRoute =
  /^(\/supervisor\/v[12]\/|\/device-actions\/v1\/run$|\/actions\/v\d\/|\/v[12]\/:uuid\/resinhup$)/;
export const routeEventOf = (method: string, url: string): AuditEvent => {
  if (method !== 'POST') return 'request';
  if (url.startsWith('/api-key/')) return 'api_key_created';
  if (url === '/device/register') return 'device_registered';
  if (url.startsWith('/rollouts/v1/')) return 'rollout_decision';
  return deviceActionRoute.test(url) ? 'device_action' : 'request';
};

export const isRecordedRoute = (method: string, url: string | undefined): boolean =>
  url !== undefined && changing.has(method) && !unrecorded.has(`${method} ${url}`);

// The record of a route's change: its kind, route, place and parameters.
type KnownPlace = { organizationId?: number; fleetId?: number; deviceId?: number };
type RoutePlace = KnownPlace & { status?: number };

const routeRecord = (request: FastifyRequest, status: number, known: KnownPlace = {}) => {
  const url = request.routeOptions.url ?? '';
  const place = placeOf(request);
  return {
    action: routeEventOf(request.method, url),
    resource: `${request.method} ${url}`,
    deviceId: known.deviceId ?? place.deviceId ?? null,
    deviceUuid: place.deviceUuid ?? null,
    fleetId: known.fleetId ?? place.fleetId ?? null,
    organizationId: known.organizationId ?? null,
    details: { params: recordedParams(request.params), status },
  };
};

// Requests whose change was recorded inside its own transaction (recordRouteChange).
const recordedInTransaction = new WeakSet<FastifyRequest>();

// For a route that makes its change in a transaction of its own: records the change in that
// transaction, so both commit or neither does (the answer's hook then leaves the request alone).
// `status` is the answer the route gives on success; `organizationId`, `fleetId` and `deviceId`
// place the record where the route's parameters do not name them.
export const recordRouteChange = async (
  tx: Queryable,
  request: FastifyRequest,
  now: Date,
  known: RoutePlace = {},
): Promise<void> => {
  await recordRequestEvent(tx, request, routeRecord(request, known.status ?? 200, known), now);
  recordedInTransaction.add(request);
};

// A route's change and its record in one transaction: `work` makes the change with `tx`, and the
// record is written after it in the same transaction, so both commit or neither does (a refused
// change throws before any record; a record that cannot be written rolls the change back).
// `place` gives the answer's status and the record's fleet or device, from the change's result
// when only the change knows them (a device registered).
export const recordedTransaction = <T>(
  db: Database,
  request: FastifyRequest,
  now: () => Date,
  work: (tx: Queryable) => Promise<T>,
  place: RoutePlace | ((result: T) => RoutePlace) = {},
): Promise<T> =>
  db.transaction(async (tx) => {
    const result = await work(tx);
    await recordRouteChange(
      tx,
      request,
      now(),
      typeof place === 'function' ? place(result) : place,
    );
    return result;
  });

// A successful call through a route that does not record it in a transaction (messages sent to
// online devices, Zendesk and payment provider calls, builds, sessions) is recorded once answered,
// with its route and parameters: such a record follows its change (a crash between the two loses
// the record). It is written before the answer is sent, so a caller who sees the answer finds
// the record.
export const registerRouteRecords = (
  app: FastifyInstance,
  db: Queryable,
  now: () => Date,
): void => {
  app.addHook('onSend', async (request, reply, payload) => {
    const url = request.routeOptions.url;
    if (reply.statusCode >= 400 || !isRecordedRoute(request.method, url)) return payload;
    if (recordedInTransaction.has(request)) return payload;
    try {
      await recordRequestEvent(db, request, routeRecord(request, reply.statusCode), now());
    } catch (error) {
      request.log.error({ err: error }, 'audit log: could not record a request');
    }
    return payload;
  });
};
