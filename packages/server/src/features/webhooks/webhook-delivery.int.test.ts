import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { parseAllowedNetworks } from '../builder/url-address-policy.js';
import { claimDelivery, deliveryLeaseMs } from './delivery-claim.js';
import { webhookRetryDelaysMs } from './delivery-outcome.js';
import { fanOutEvents } from './event-fanout.js';
import { disabledNotice, disabledNoticeSubject } from './disabled-notice.js';
import { startTestReceiver, type TestReceiver } from './test-receiver.js';
import { createWebhookDispatcher, type WebhookDispatcher } from './webhook-dispatcher.js';
import { createWebhookSender, resolveAll } from './webhook-sender.js';

const loopback = { allowed: parseAllowedNetworks(['127.0.0.1']), resolve: resolveAll };

// The dispatcher on a real database and a real receiver, with a clock the test moves: retries,
// their backoff, order per device, disabling, and what a crash leaves.
describe('webhook delivery', () => {
  let db: Database;
  let receiver: TestReceiver;
  let organization: number;
  let fleet: fx.FleetFixture;
  let endpoint = 0;
  let clock = new Date('2026-11-30T12:00:00Z');
  let dispatcher: WebhookDispatcher;

  const newDispatcher = () =>
    createWebhookDispatcher({
      db,
      now: () => clock,
      send: createWebhookSender(loopback, 5_000),
      log: { warn: () => undefined },
      onDisabled: disabledNotice(() => 'https://flotilla.example'),
    });
  // One complete run: fan out, deliver everything due at the clock's time.
  const run = async () => {
    dispatcher.kick();
    await dispatcher.idle();
  };
  const advance = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };
  const received = () =>
    receiver.received.map((request) => {
      const body = JSON.parse(request.body) as {
        type: string;
        data: { name?: string; uuid?: string };
      };
      return `${body.type}:${body.data.name ?? body.data.uuid ?? ''}`;
    });

  beforeAll(async () => {
    db = await createTestDatabase();
    receiver = await startTestReceiver();
    organization = await fx.createOrganization(db, 'Retried');
    fleet = await fx.createFleet(db, organization, 'retried');
    const admin = await fx.createUser(db, 'retryadmin');
    await fx.addOrganizationMember(db, admin.userId, organization, 'administrator');
  });
  beforeEach(async () => {
    await db.query(`DELETE FROM "event_outbox"`);
    await db.query(`DELETE FROM "webhook_endpoint"`);
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO "webhook_endpoint" ("organization", "url", "events", "secret")
       VALUES ($1, $2, ARRAY['variable.changed', 'device.update_status_changed'], 'whsec_test')
       RETURNING "id"`,
      [organization, receiver.url],
    );
    endpoint = rows[0]?.id ?? 0;
    receiver.received.length = 0;
    receiver.answer = () => 200;
    dispatcher = newDispatcher();
  });
  afterEach(async () => {
    await dispatcher.stop();
  });
  afterAll(async () => {
    await receiver?.close();
    await db?.close();
  });

  const deliveries = async () =>
    (
      await db.query<{
        status: string;
        attempts: number;
        next_attempt_at: Date;
        response_status: number | null;
      }>(
        `SELECT "status", "attempts", "next_attempt_at", "response_status" FROM "webhook_delivery"
          WHERE "endpoint" = $1 ORDER BY "id"`,
        [endpoint],
      )
    ).rows;

  it('retries a failed delivery after growing delays, on the clock it is given', async () => {
    receiver.answer = () => 503;
    await fx.setFleetEnvVar(db, fleet.id, 'RETRY', '1');
    await run();
    expect(receiver.received).toHaveLength(1);
    const [first] = await deliveries();
    expect(first).toMatchObject({ status: 'pending', attempts: 1, response_status: 503 });
    expect(first?.next_attempt_at.getTime()).toBe(clock.getTime() + (webhookRetryDelaysMs[0] ?? 0));
    // Not due yet: nothing is sent.
    advance((webhookRetryDelaysMs[0] ?? 0) - 1_000);
    await run();
    expect(receiver.received).toHaveLength(1);
    advance(1_000);
    await run();
    expect(receiver.received).toHaveLength(2);
    expect((await deliveries())[0]?.next_attempt_at.getTime()).toBe(
      clock.getTime() + (webhookRetryDelaysMs[1] ?? 0),
    );
    receiver.answer = () => 200;
    advance(webhookRetryDelaysMs[1] ?? 0);
    await run();
    expect(receiver.received).toHaveLength(3);
    expect(await deliveries()).toMatchObject([{ status: 'succeeded', attempts: 3 }]);
    // Every attempt carried the same delivery id.
    expect(
      new Set(receiver.received.map((request) => request.headers['flotilla-delivery'])).size,
    ).toBe(1);
  });

  it("keeps a device's events in order while an earlier one is retried; other devices go on", async () => {
    const slow = await fx.createDevice(db, fleet.id, 'slow');
    const fast = await fx.createDevice(db, fleet.id, 'fast');
    let refusals = 1;
    receiver.answer = (request) =>
      request.body.includes(slow.uuid) &&
      request.body.includes('"current":"downloading"') &&
      refusals-- > 0
        ? 500
        : 200;
    await db.query(`UPDATE "device" SET "update_status" = 'downloading' WHERE "id" = $1`, [
      slow.id,
    ]);
    await db.query(`UPDATE "device" SET "update_status" = 'applying changes' WHERE "id" = $1`, [
      slow.id,
    ]);
    await db.query(`UPDATE "device" SET "update_status" = 'downloading' WHERE "id" = $1`, [
      fast.id,
    ]);
    await run();
    // The slow device's first event failed; its second waits behind it.
    expect(received()).toEqual([
      `device.update_status_changed:${slow.uuid}`,
      `device.update_status_changed:${fast.uuid}`,
    ]);
    advance(webhookRetryDelaysMs[0] ?? 0);
    await run();
    const bodies = receiver.received
      .slice(2)
      .map((request) => JSON.parse(request.body) as { data: { current: string } });
    expect(bodies.map((body) => body.data.current)).toEqual(['downloading', 'applying changes']);
  });

  it('disables an endpoint that failed for a day and tells the administrators', async () => {
    receiver.answer = () => 500;
    await fx.setFleetEnvVar(db, fleet.id, 'DEAD', '1');
    await run();
    for (const delay of webhookRetryDelaysMs) {
      advance(delay);
      await run();
    }
    expect(receiver.received).toHaveLength(webhookRetryDelaysMs.length + 1);
    expect(await deliveries()).toMatchObject([{ status: 'failed', response_status: 500 }]);
    const { rows } = await db.query<{ is_enabled: boolean; disabled_reason: string }>(
      `SELECT "is_enabled", "disabled_reason" FROM "webhook_endpoint" WHERE "id" = $1`,
      [endpoint],
    );
    expect(rows[0]?.is_enabled).toBe(false);
    expect(rows[0]?.disabled_reason).toContain('HTTP 500');
    const mail = await db.query<{ recipient: string }>(
      `SELECT "recipient" FROM "mail_message" WHERE "subject" = $1`,
      [disabledNoticeSubject],
    );
    expect(mail.rows.map((row) => row.recipient)).toEqual(['retryadmin@example.com']);
    // A disabled endpoint is sent nothing more.
    await fx.setFleetEnvVar(db, fleet.id, 'AFTER', '1');
    advance(60_000);
    await run();
    expect(receiver.received).toHaveLength(webhookRetryDelaysMs.length + 1);
  });

  it('delivers exactly once what was committed while no dispatcher ran', async () => {
    await dispatcher.stop();
    await fx.setFleetEnvVar(db, fleet.id, 'WHILE_DOWN', '1');
    dispatcher = newDispatcher();
    await run();
    await run();
    expect(received()).toEqual(['variable.changed:WHILE_DOWN']);
  });

  it('takes over a delivery whose process died after claiming it, once its lease lapsed', async () => {
    await fx.setFleetEnvVar(db, fleet.id, 'CLAIMED', '1');
    // A process fans out and claims the delivery, then dies before sending it.
    const dead = newDispatcher();
    await dead.stop();
    await fanOutEvents(db, clock);
    const claimed = await claimDelivery(db, clock);
    expect(claimed).toBeDefined();
    await run();
    expect(receiver.received).toHaveLength(0);
    advance(deliveryLeaseMs);
    await run();
    await run();
    expect(received()).toEqual(['variable.changed:CLAIMED']);
    expect(receiver.received[0]?.headers['flotilla-delivery']).toBe(claimed?.deliveryUuid);
  });

  it('refuses to deliver to an address the guard refuses', async () => {
    const guarded = createWebhookSender({ allowed: [], resolve: resolveAll }, 5_000);
    await expect(guarded({ url: receiver.url, headers: {}, body: '{}' })).rejects.toThrow(
      'Webhooks reach only public addresses',
    );
    expect(receiver.received).toHaveLength(0);
  });
});
