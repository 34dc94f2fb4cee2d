import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertRuleMessages } from '@flotilla/shared/alerts/alert-rules';
import type { Database } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import {
  addFleetMember,
  addOrganizationMember,
  createDevice,
  createFleet,
  createOrganization,
} from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { bearer, signedInUser } from '../../test-support/user-sessions.js';
import { sweepAlerts } from './alert-sweep.js';

// Alert rules through /v7 and the sweep that fires, resolves and mails them, over chosen times
// (the sweep is called with its `now`; nothing waits for a timer).

let db: Database;
let app: FastifyInstance;
let organization: number;
let fleetId: number;
let admin: string;
let member: string;
let outsider: string;
const minute = 60_000;
const t0 = new Date('2026-11-30T10:00:00Z');
const at = (minutes: number): Date => new Date(t0.getTime() + minutes * minute);
const url = 'https://flotilla.example.com';

beforeAll(async () => {
  db = await createTestDatabase();
  app = buildServer(createTestContext(db));
  await app.ready();
  organization = await createOrganization(db, 'Alerting');
  fleetId = (await createFleet(db, organization, 'watched')).id;
  const adminUser = await signedInUser(db, app, 'alert-admin');
  await addOrganizationMember(db, adminUser.id, organization, 'administrator');
  admin = adminUser.token;
  const memberUser = await signedInUser(db, app, 'alert-member');
  await addOrganizationMember(db, memberUser.id, organization, 'member');
  await addFleetMember(db, memberUser.id, fleetId, 'observer');
  member = memberUser.token;
  outsider = (await signedInUser(db, app, 'alert-outsider')).token;
});
afterAll(async () => {
  await app.close();
  await db.close();
});

const createRule = (token: string, body: Record<string, unknown>) =>
  app.inject({
    method: 'POST',
    url: '/v7/flotilla_alert_rule',
    headers: bearer(token),
    payload: { belongs_to__organization: organization, ...body },
  });

const readAll = async (token: string, resource: string): Promise<Record<string, unknown>[]> => {
  const response = await app.inject({ url: `/v7/${resource}`, headers: bearer(token) });
  expect(response.statusCode).toBe(200);
  return (response.json() as { d: Record<string, unknown>[] }).d;
};

const mailsTo = async (recipient: string) =>
  (
    await db.query<{ subject: string; text_body: string }>(
      `SELECT "subject", "text_body" FROM "mail_message" WHERE "recipient" = $1 ORDER BY "id"`,
      [recipient],
    )
  ).rows;

const alertsOf = async (ruleId: number) =>
  (
    await db.query<{ device: number; status: string; detail: string }>(
      `SELECT "device", "status", "detail" FROM "flotilla_alert"
        WHERE "is_raised_by__flotilla_alert_rule" = $1 ORDER BY "id"`,
      [ruleId],
    )
  ).rows;

const setEnabled = (ruleId: number, enabled: boolean) =>
  db.query('UPDATE "flotilla_alert_rule" SET "is_enabled" = $2 WHERE "id" = $1', [ruleId, enabled]);

describe('alert rules through /v7', () => {
  it("lets the organization's administrators write rules and its members read them", async () => {
    const created = await createRule(admin, {
      name: 'Gone quiet',
      condition: 'device offline',
      for_minutes: 10,
    });
    expect(created.statusCode).toBe(201);
    const ruleId = Number((created.json() as { id: number }).id);
    expect(
      (await createRule(member, { name: 'Mine', condition: 'update failed' })).statusCode,
    ).toBe(401);
    expect((await readAll(member, 'flotilla_alert_rule')).map((rule) => rule.name)).toContain(
      'Gone quiet',
    );
    expect(await readAll(outsider, 'flotilla_alert_rule')).toEqual([]);
    const renamed = await app.inject({
      method: 'PATCH',
      url: `/v7/flotilla_alert_rule(${ruleId})`,
      headers: bearer(member),
      payload: { name: 'Renamed' },
    });
    expect(renamed.statusCode).toBe(401);
    await setEnabled(ruleId, false);
  });

  it('refuses a rule that cannot be evaluated, with the reason', async () => {
    const refused = async (body: Record<string, unknown>) => {
      const response = await createRule(admin, { name: 'Bad', ...body });
      expect(response.statusCode).toBe(400);
      return response.body;
    };
    expect(await refused({ condition: 'device on fire' })).toContain(alertRuleMessages.condition);
    expect(await refused({ condition: 'metric above', metric: 'cpu usage' })).toContain(
      alertRuleMessages.metricNeeded,
    );
    expect(await refused({ condition: 'device offline', threshold: 80 })).toContain(
      alertRuleMessages.metricOnly,
    );
    expect(
      await refused({ condition: 'metric above', metric: 'cpu usage', threshold: 1001 }),
    ).toContain(alertRuleMessages.threshold);
    expect(await refused({ condition: 'update failed', for_minutes: 0 })).toContain(
      alertRuleMessages.forMinutes,
    );
    // A fleet of another organization: unknown to whoever cannot read it, refused to whoever can.
    const elsewhere = await createOrganization(db, 'Elsewhere');
    const foreignFleet = (await createFleet(db, elsewhere, 'foreign')).id;
    const unseen = await createRule(admin, {
      name: 'Foreign',
      condition: 'update failed',
      applies_to__application: foreignFleet,
    });
    expect(unseen.statusCode).toBe(401);
    const adminId = (
      await db.query<{ id: number }>(`SELECT "id" FROM "user" WHERE "username" = 'alert-admin'`)
    ).rows[0]?.id;
    if (adminId === undefined) throw new Error('no admin');
    await addOrganizationMember(db, adminId, elsewhere, 'administrator');
    expect(
      await refused({ condition: 'update failed', applies_to__application: foreignFleet }),
    ).toContain(alertRuleMessages.fleetOfOrganization);
  });
});

describe('the alert sweep', () => {
  it('fires when a device has been offline for the rule minutes, reminds, and resolves', async () => {
    const fleet = (await createFleet(db, organization, 'offline-fleet')).id;
    const device = await createDevice(db, fleet, 'pump-1');
    const memberId = (
      await db.query<{ id: number }>(`SELECT "id" FROM "user" WHERE "username" = 'alert-member'`)
    ).rows[0]?.id;
    if (memberId === undefined) throw new Error('no member');
    await addFleetMember(db, memberId, fleet, 'observer');
    // Polls every minute: offline 160 s after its last contact (2.5 polls + 10 s).
    await db.query(
      `UPDATE "device" SET "last_contact_at" = $2, "poll_interval_ms" = 60000 WHERE "id" = $1`,
      [device.id, t0],
    );
    const rule = await createRule(admin, {
      name: 'Pumps offline',
      condition: 'device offline',
      applies_to__application: fleet,
      for_minutes: 5,
      repeat_interval_minutes: 60,
    });
    const ruleId = Number((rule.json() as { id: number }).id);
    await sweepAlerts(db, at(6), url);
    expect(await alertsOf(ruleId)).toEqual([]);
    await sweepAlerts(db, at(8), url);
    expect(await alertsOf(ruleId)).toEqual([
      { device: device.id, status: 'firing', detail: 'Offline since 2026-11-30 10:02 UTC' },
    ]);
    const firstMails = await mailsTo('alert-admin@example.com');
    expect(firstMails.at(-1)?.subject).toBe('Pumps offline: 1 device alerting');
    expect(firstMails.at(-1)?.text_body).toContain('Firing: pump-1');
    expect(firstMails.at(-1)?.text_body).toContain(`${url}/devices/${device.uuid}`);
    // Members who are not administrators get no mail.
    expect(await mailsTo('alert-member@example.com')).toEqual([]);
    // No second mail before the repeat interval, one after it.
    await sweepAlerts(db, at(30), url);
    expect(await mailsTo('alert-admin@example.com')).toHaveLength(firstMails.length);
    await sweepAlerts(db, at(69), url);
    expect(await mailsTo('alert-admin@example.com')).toHaveLength(firstMails.length + 1);
    // Back online: resolved, and said so.
    await db.query(`UPDATE "device" SET "last_contact_at" = $2 WHERE "id" = $1`, [
      device.id,
      at(70),
    ]);
    await sweepAlerts(db, at(71), url);
    expect((await alertsOf(ruleId)).map((alert) => alert.status)).toEqual(['resolved']);
    expect((await mailsTo('alert-admin@example.com')).at(-1)?.subject).toBe(
      'Pumps offline: resolved on 1 device',
    );
    // The fleet's members read the device's alerts; others do not.
    expect((await readAll(member, 'flotilla_alert')).map((alert) => alert.device)).toEqual(
      expect.arrayContaining([{ __id: device.id }]),
    );
    expect(await readAll(outsider, 'flotilla_alert')).toEqual([]);
    await setEnabled(ruleId, false);
  });

  it('fires on a metric only when it stayed above the threshold for the whole time', async () => {
    const fleet = (await createFleet(db, organization, 'hot-fleet')).id;
    const steady = await createDevice(db, fleet, 'hot-steady');
    const dipping = await createDevice(db, fleet, 'hot-dipping');
    const sample = (deviceId: number, minutes: number, temp: number) =>
      db.query(
        `INSERT INTO "device_metric_sample" ("device", "at", "cpu_temp") VALUES ($1, $2, $3)`,
        [deviceId, at(minutes), temp],
      );
    for (const minutes of [0, 2, 4, 6, 8, 10]) {
      await sample(steady.id, minutes, 85);
      await sample(dipping.id, minutes, minutes === 8 ? 60 : 85);
    }
    const rule = await createRule(admin, {
      name: 'Too hot',
      condition: 'metric above',
      metric: 'cpu temperature',
      threshold: 80,
      applies_to__application: fleet,
      for_minutes: 5,
    });
    const ruleId = Number((rule.json() as { id: number }).id);
    await sweepAlerts(db, at(10), url);
    expect(await alertsOf(ruleId)).toEqual([
      { device: steady.id, status: 'firing', detail: 'CPU temperature 85 °C for 5 minutes' },
    ]);
    await setEnabled(ruleId, false);
  });

  it('tells nobody while a rule is silenced, then tells what still fires', async () => {
    const fleet = (await createFleet(db, organization, 'quiet-fleet')).id;
    const device = await createDevice(db, fleet, 'quiet-1');
    await db.query(`UPDATE "device" SET "update_status" = 'aborted' WHERE "id" = $1`, [device.id]);
    const rule = await createRule(admin, {
      name: 'Failed updates',
      condition: 'update failed',
      applies_to__application: fleet,
      is_silenced_until__date: at(20).toISOString(),
    });
    const ruleId = Number((rule.json() as { id: number }).id);
    const before = (await mailsTo('alert-admin@example.com')).length;
    await sweepAlerts(db, at(1), url);
    expect((await alertsOf(ruleId)).map((alert) => alert.status)).toEqual(['firing']);
    expect(await mailsTo('alert-admin@example.com')).toHaveLength(before);
    await sweepAlerts(db, at(21), url);
    const mails = await mailsTo('alert-admin@example.com');
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)?.text_body).toContain('Firing: quiet-1');
    expect(mails.at(-1)?.text_body).toContain('Update aborted');
    // Disabled: its alert resolves without a word.
    await setEnabled(ruleId, false);
    await sweepAlerts(db, at(22), url);
    expect((await alertsOf(ruleId)).map((alert) => alert.status)).toEqual(['resolved']);
    expect(await mailsTo('alert-admin@example.com')).toHaveLength(before + 1);
  });
});
