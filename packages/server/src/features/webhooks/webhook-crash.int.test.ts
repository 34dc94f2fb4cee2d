import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestDatabaseUrl } from '../../test-support/test-database.js';
import { waitFor } from '../../test-support/wait-for.js';
import { parseAllowedNetworks } from '../builder/url-address-policy.js';
import { deliveryLeaseMs } from './delivery-claim.js';
import { disabledNotice } from './disabled-notice.js';
import { startTestReceiver, type TestReceiver } from './test-receiver.js';
import { createWebhookDispatcher } from './webhook-dispatcher.js';
import { createWebhookSender, resolveAll } from './webhook-sender.js';

// A server process killed with SIGKILL while it delivers an event whose change had committed: the
// next process takes the delivery over once the dead one's claim lapses and sends it again with
// the same delivery id, so a receiver that keeps the ids it handled (docs/EVENTS.md) handles the
// event exactly once. The restart is a dispatcher of this process whose clock stands past the
// lease (waiting out the 90 s lease of a second child would only make the test slow).
describe('a server killed between commit and delivery', () => {
  let db: Database;
  let dropDatabase: () => Promise<void>;
  let dataDir: string;
  let child: ChildProcess | undefined;
  let receiver: TestReceiver;

  beforeAll(async () => {
    const { url, drop } = await createTestDatabaseUrl();
    dropDatabase = drop;
    db = openDatabase(url, { max: 3 });
    receiver = await startTestReceiver();
    dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-webhook-crash-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: url,
      PORT: '0',
      HOST: '127.0.0.1',
      FLOTILLA_DATA_DIR: dataDir,
      FLOTILLA_DEMO: 'off',
      FLOTILLA_ADMIN_PASSWORD: 'killed-mid-delivery',
      FLOTILLA_LOG_FORMAT: 'json',
      FLOTILLA_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1',
    };
    const server = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=source', path.join(import.meta.dirname, '../../main.ts')],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = server;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner in 90 s: ${output}`)), 90_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (!output.includes('"banner"')) return;
        clearTimeout(timer);
        resolve();
      };
      server.stdout?.on('data', read);
      server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      server.once('exit', (code) => reject(new Error(`exited (${code}): ${output}`)));
    });
  }, 120_000);
  afterAll(async () => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    await receiver?.close();
    await db?.close();
    await dropDatabase?.();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('delivers the event again after the crash, with the same delivery id', async () => {
    const organization = await fx.createOrganization(db, 'Crashing');
    const fleet = await fx.createFleet(db, organization, 'crashing');
    await db.query(
      `INSERT INTO "webhook_endpoint" ("organization", "url", "events", "secret")
       VALUES ($1, $2, ARRAY['variable.changed'], 'whsec_crash')`,
      [organization, receiver.url],
    );
    // The receiver holds its answer; the process dies meanwhile.
    let arrived = false;
    receiver.answer = () => {
      arrived = true;
      if (child?.exitCode === null) child.kill('SIGKILL');
      return 200;
    };
    await fx.setFleetEnvVar(db, fleet.id, 'COMMITTED', '1');
    await waitFor('the first attempt', () => arrived);
    await new Promise((resolve) => child?.once('exit', resolve));
    const { rows } = await db.query<{ status: string }>(`SELECT "status" FROM "webhook_delivery"`);
    expect(rows).toEqual([{ status: 'delivering' }]);

    receiver.answer = () => 200;
    const restarted = createWebhookDispatcher({
      db,
      now: () => new Date(Date.now() + deliveryLeaseMs),
      send: createWebhookSender(
        { allowed: parseAllowedNetworks(['127.0.0.1']), resolve: resolveAll },
        5_000,
      ),
      log: { warn: () => undefined },
      onDisabled: disabledNotice(() => 'https://flotilla.example'),
    });
    restarted.kick();
    await restarted.idle();
    restarted.kick();
    await restarted.idle();
    await restarted.stop();
    const handled = new Set(
      receiver.received.map((request) => request.headers['flotilla-delivery']),
    );
    expect(receiver.received).toHaveLength(2);
    expect(handled.size).toBe(1);
    const after = await db.query<{ status: string }>(`SELECT "status" FROM "webhook_delivery"`);
    expect(after.rows).toEqual([{ status: 'succeeded' }]);
  });
});
