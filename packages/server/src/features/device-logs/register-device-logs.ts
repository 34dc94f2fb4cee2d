import { randomInt } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type AppContext, messageBusOf } from '../../app-context.js';
import { badRequest } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { logFailure } from '../../infra/logging/log-failure.js';
import { registerPeriodicTask } from '../../infra/scheduling/periodic-task.js';
import type { Resource } from '../../model/model-types.js';
import {
  deviceResource,
  type DeviceRef,
  findPermittedDevice,
} from '../device-state/find-device.js';
import { announcerOn, createLogHub } from './log-hub.js';
import { ingestLogStream } from './log-ingest.js';
import { createLogIntake } from './log-intake.js';
import { toLineOut, toStoredLine, type StoredLine } from './log-line.js';
import { type DeviceLogOptions, deviceLogOptions } from './log-options.js';
import { maintainLogPartitions } from './log-partitions.js';
import { deleteLogs, readHistory } from './log-store.js';
import { openLogSubscription } from './log-subscription.js';
import { createLogWriter } from './log-writer.js';
import { parseLogsQuery } from './logs-query.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

const uuidParams = z.object({ uuid: z.string().min(1).max(100) });
const maxBatchBodyLines = 10_000;

// Deleting logs is its own permission (resin.device_log.delete, developers and up), granted on
// the device's row: the device resource under the device_log name.
const deviceLogResource = (device: Resource): Resource => ({ ...device, name: 'device_log' });

const isZlibError = (error: unknown): boolean =>
  error instanceof Error && 'code' in error && String(error.code).startsWith('Z_');

// Device logs (wire contract sections 6 and 7.3): ingest from devices (long-lived NDJSON stream,
// or JSON batches from older agents), history and live streams for users, deletion. Accepted
// lines go to this process's live streams at once and to storage in batches (log-intake.ts);
// other processes' streams hear of them once stored (log-hub.ts), or with NATS get them at once
// when they tail the device (log-relay.ts). `options` is for tests;
// production uses the defaults and the configured retention (FLOTILLA_LOG_RETENTION, lines per
// device; FLOTILLA_LOG_RETENTION_DAYS, days kept, by dropping day partitions: log-partitions.ts).
export const registerDeviceLogs = (
  app: FastifyInstance,
  ctx: AppContext,
  overrides: Partial<DeviceLogOptions> = {},
): void => {
  const options = deviceLogOptions(ctx.config.logRetention, overrides);
  const onError = (error: unknown): void => logFailure(app.log, error, 'device logs');
  // Random per process (a safe integer): tells this process's stored lines from others'.
  const origin = randomInt(1, 2 ** 47);
  const bus = messageBusOf(ctx);
  const hub = createLogHub(bus, origin);
  const writer = createLogWriter({
    db: ctx.db,
    origin,
    ...options,
    log: app.log,
    onError,
    ...(bus.engine === 'nats' ? { announce: announcerOn(bus) } : {}),
  });
  const intake = createLogIntake({ origin, hub, writer, now: ctx.now });
  // Long-lived requests would hold app.close() open: they are ended first.
  const openStreams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of openStreams) end();
  });
  app.addHook('onClose', async () => {
    hub.close();
    await writer.close();
  });
  registerPeriodicTask(app, {
    run: async () => {
      const upkeep = await maintainLogPartitions(ctx.db, {
        now: ctx.now(),
        retentionDays: ctx.config.deviceLogs.retentionDays,
        aheadDays: options.partitionAheadDays,
      });
      if (upkeep.created.length + upkeep.dropped.length > 0)
        app.log.info(upkeep, 'device logs: partitions');
    },
    intervalMs: options.partitionCheckMs,
    firstRunMs: 0,
    failure: 'device logs: could not create or drop log partitions; will retry',
    schedule: options.partitionSchedule,
  });

  const readableDevice = (request: FastifyRequest, uuid: string): Promise<DeviceRef> =>
    findPermittedDevice(ctx.db, request.actor, uuid, {
      resource: deviceResource(ctx.model),
      action: 'read',
    });
  // Only a device writes its own logs (its key holds device.update on itself alone).
  const ownDevice = (request: FastifyRequest, uuid: string): Promise<DeviceRef> =>
    findPermittedDevice(ctx.db, request.actor, uuid, {
      resource: deviceResource(ctx.model),
      action: 'update',
    });

  void app.register(async (scoped) => {
    // The log stream is read as it arrives: its parser hands the raw request stream over.
    scoped.addContentTypeParser('application/x-ndjson', (_request, payload, done) =>
      done(null, payload),
    );
    scoped.post(
      '/device/v2/:uuid/log-stream',
      { config: { access: 'device' } },
      async (request, reply) => {
        const { uuid } = parseBody(uuidParams, request.params);
        const device = await ownDevice(request, uuid);
        if (!(request.body instanceof Readable)) {
          throw badRequest('Send the log stream as Content-Type: application/x-ndjson');
        }
        const body = request.body;
        const touch = (): void => ctx.contacts.record(device.id, ctx.now());
        touch();
        const end = (): void => void body.destroy();
        openStreams.add(end);
        try {
          const stats = await ingestLogStream(body, request.headers['content-encoding'], {
            accept: (lines) => intake.accept(device.id, lines),
            settled: () => writer.settled(device.id),
            limits: options.ingest,
            now: ctx.now,
            onActivity: touch,
          });
          request.log.debug({ device: device.id, ...stats }, 'log stream ended');
        } catch (error) {
          if (isZlibError(error)) throw badRequest('The log stream is not valid gzip');
          // The device went away mid-stream: what arrived is kept; nobody reads an answer.
          if (request.raw.destroyed || body.destroyed) return reply.status(400).send();
          throw error;
        } finally {
          openStreams.delete(end);
        }
        return reply.status(201).send();
      },
    );
  });

  // Older agents: one JSON array of lines per request.
  // NUL in a message is dropped with the line kept (toStoredLine), not refused.
  const batchConfig = { access: 'device' as const, acceptsNul: true };
  app.post('/device/v2/:uuid/logs', { config: batchConfig }, async (request, reply) => {
    const { uuid } = parseBody(uuidParams, request.params);
    const device = await ownDevice(request, uuid);
    if (!Array.isArray(request.body)) throw badRequest('The body must be a JSON array of lines');
    if (request.body.length > maxBatchBodyLines) {
      throw badRequest(`At most ${maxBatchBodyLines} lines per request`);
    }
    const now = ctx.now();
    const lines = request.body
      .map((value: unknown) => toStoredLine(value, now.getTime()))
      .filter((line): line is StoredLine => line !== undefined);
    intake.accept(device.id, lines);
    await writer.settled(device.id);
    ctx.contacts.record(device.id, now);
    return reply.status(201).send();
  });

  app.get('/device/v2/:uuid/logs', { config: { access: 'any-actor' } }, async (request, reply) => {
    const { uuid } = parseBody(uuidParams, request.params);
    const query = parseLogsQuery(request.query, options.retention);
    const device = await readableDevice(request, uuid);
    if (!query.stream) {
      const rows = await readHistory(ctx.db, {
        deviceId: device.id,
        count: query.count,
        start: query.start,
      });
      return reply.send(rows.map(toLineOut));
    }
    const subscription = await openLogSubscription(
      { db: ctx.db, hub, intake, settled: (deviceId) => writer.settled(deviceId), onError },
      {
        deviceId: device.id,
        count: query.count,
        start: query.start,
        keepAliveMs: options.keepAliveMs,
      },
    );
    openStreams.add(subscription.close);
    reply.raw.on('close', () => {
      subscription.close();
      openStreams.delete(subscription.close);
    });
    return reply
      .type('application/x-ndjson')
      .header('Cache-Control', 'no-cache')
      .header('X-Accel-Buffering', 'no')
      .send(subscription.stream);
  });

  app.delete('/device/v2/:uuid/logs', { config: { access: 'user' } }, async (request, reply) => {
    const { uuid } = parseBody(uuidParams, request.params);
    const device = await findPermittedDevice(ctx.db, request.actor, uuid, {
      resource: deviceLogResource(deviceResource(ctx.model)),
      action: 'delete',
    });
    await recordedTransaction(ctx.db, request, ctx.now, (tx) => deleteLogs(tx, device.id), {
      deviceId: device.id,
    });
    return reply.status(200).send();
  });
};
