import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertRuleMessages } from '@flotilla/shared/alerts/alert-rules';
import { eventCatalogue } from '@flotilla/shared/events/event-catalogue';
import type { Database } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import { addOrganizationMember, createDevice, createFleet } from '../../test-support/fixtures.js';
import { createOrganization } from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { bearer, signedInUser } from '../../test-support/user-sessions.js';
import { parseAllowedNetworks } from '../builder/url-address-policy.js';
import { disabledNotice } from '../webhooks/disabled-notice.js';
import { startTestReceiver, type TestReceiver } from '../webhooks/test-receiver.js';
import { createWebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import { createWebhookSender, resolveAll } from '../webhooks/webhook-sender.js';
import { sweepAlerts } from './alert-sweep.js';

// Log line rules over chosen times (the sweep is called with its `now`), and the alert events
// they raise delivered to a real webhook receiver on loopback by the real dispatcher.
let db: Database;
let app: FastifyInstance;
let receiver: TestReceiver;
let organization: number;
let admin: string;
const minute = 60_000;
// The test's times start at the real clock's minute: the app's own webhook dispatcher stamps the
// deliveries it makes with the real clock, and the test's dispatcher (at t0 + 27 minutes) must
// find them due. A fixed date became a date in the past, and nothing was delivered.
const t0 = new Date(Math.floor(Date.now() / minute) * minute);
const at = (minutes: number): Date => new Date(t0.getTime() + minutes * minute);
const url = 'https://flotilla.example.com';
const secret = 'whsec_alerts';

beforeAll(async () => {
  db = await createTestDatabase();
  app = buildServer(createTestContext(db));
  await app.ready();
  receiver = await startTestReceiver();
  organization = await createOrganization(db, 'Logwatch');
  const adminUser = await signedInUser(db, app, 'log-admin');
  await addOrganizationMember(db, adminUser.id, organization, 'administrator');
  admin = adminUser.token;
});
afterAll(async () => {
  await receiver?.close();
  await app?.close();
  await db?.close();
});

const createRule = (body: Record<string, unknown>) =>
  app.inject({
    method: 'POST',
    url: '/v7/flotilla_alert_rule',
    headers: bearer(admin),
    payload: { belongs_to__organization: organization, ...body },
  });

const logLine = (device: number, minutes: number, message: string) =>
  db.query(
    `INSERT INTO "device_log" ("device", "created_at", "timestamp", "message")
     VALUES ($1, $2, $2, $3)`,
    [device, at(minutes).getTime(), message],
  );

const alertsOf = async (ruleId: number) =>
  (
    await db.query<{ device: number; status: string; detail: string }>(
      `SELECT "device", "status", "detail" FROM "flotilla_alert"
        WHERE "is_raised_by__flotilla_alert_rule" = $1 ORDER BY "id"`,
      [ruleId],
    )
  ).rows;

describe('log line alert rules', () => {
  it('refuses a log rule without its text, with a text on another rule, or a text too long', async () => {
    const refused = async (body: Record<string, unknown>) => {
      const response = await createRule({ name: 'Bad', ...body });
      expect(response.statusCode).toBe(400);
      return response.body;
    };
    expect(await refused({ condition: 'log line' })).toContain(alertRuleMessages.patternNeeded);
    expect(await refused({ condition: 'update failed', pattern: 'panic' })).toContain(
      alertRuleMessages.patternOnly,
    );
    // The /v7 engine's own length check answers first.
    expect(await refused({ condition: 'log line', pattern: 'x'.repeat(201) })).toContain(
      'longer than 200 characters',
    );
    expect(await refused({ condition: 'log line', pattern: 'two\nlines' })).toContain(
      alertRuleMessages.pattern,
    );
  });

  it('fires on a matching line within the minutes, resolves when none came for that long, and tells the webhook', async () => {
    const fleet = (await createFleet(db, organization, 'log-fleet')).id;
    const noisy = await createDevice(db, fleet, 'noisy');
    const calm = await createDevice(db, fleet, 'calm');
    await db.query(`DELETE FROM "event_outbox"`);
    await db.query(
      `INSERT INTO "webhook_endpoint" ("organization", "url", "events", "secret")
       VALUES ($1, $2, ARRAY['alert.fired', 'alert.resolved'], $3)`,
      [organization, receiver.url, secret],
    );
    const created = await createRule({
      name: 'Kernel panics',
      condition: 'log line',
      pattern: 'Kernel PANIC',
      applies_to__application: fleet,
      for_minutes: 10,
    });
    expect(created.statusCode).toBe(201);
    const ruleId = Number((created.json() as { id: number }).id);

    // A line before the window, and lines that do not contain the text: nothing.
    await logLine(noisy.id, 0, 'kernel panic: before the window');
    await logLine(calm.id, 15, 'all good');
    await sweepAlerts(db, at(15), url);
    expect(await alertsOf(ruleId)).toEqual([]);

    await logLine(noisy.id, 16, '[  12.3] Kernel panic - not syncing: VFS');
    await sweepAlerts(db, at(17), url);
    expect(await alertsOf(ruleId)).toEqual([
      {
        device: noisy.id,
        status: 'firing',
        detail: 'Log line: [  12.3] Kernel panic - not syncing: VFS',
      },
    ]);
    // Still within ten minutes of the line: still firing; past them: resolved.
    await sweepAlerts(db, at(25), url);
    expect((await alertsOf(ruleId)).map((alert) => alert.status)).toEqual(['firing']);
    await sweepAlerts(db, at(27), url);
    expect((await alertsOf(ruleId)).map((alert) => alert.status)).toEqual(['resolved']);

    const clock = at(27);
    const dispatcher = createWebhookDispatcher({
      db,
      now: () => clock,
      send: createWebhookSender(
        { allowed: parseAllowedNetworks(['127.0.0.1']), resolve: resolveAll },
        5_000,
      ),
      log: { warn: () => undefined },
      onDisabled: disabledNotice(() => url),
    });
    dispatcher.kick();
    await dispatcher.idle();
    await dispatcher.stop();
    const bodies = receiver.received.map((request) => {
      const signature = String(request.headers['flotilla-signature']);
      const [t, v1] = signature.split(',').map((part) => part.split('=')[1]);
      const expected = createHmac('sha256', secret).update(`${t}.${request.body}`).digest('hex');
      expect(v1).toBe(expected);
      return JSON.parse(request.body) as { type: string; device: number; data: object };
    });
    expect(bodies.map((body) => body.type)).toEqual(['alert.fired', 'alert.resolved']);
    expect(bodies.every((body) => body.device === noisy.id)).toBe(true);
    expect(eventCatalogue['alert.fired'].data.parse(bodies[0]?.data)).toMatchObject({
      ruleName: 'Kernel panics',
      condition: 'log line',
      deviceName: 'noisy',
      silenced: false,
    });
    expect(eventCatalogue['alert.resolved'].data.parse(bodies[1]?.data).resolvedAt).not.toBeNull();
  });
});
