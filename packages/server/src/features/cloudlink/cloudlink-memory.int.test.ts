import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudlinkPath } from '@flotilla/shared/cloudlink/messages';
import type { Database } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import { connectFakeDevice } from '../../test-support/fake-device-client.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createApiKey } from '../api-keys/store-api-key.js';

// What an idle cloudlink keeps in memory: thousands stay open per process, so none may hold on
// to its upgrade request (headers, logger, Fastify request and reply) or a compression context.

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

// Full collections until `ref` is gone (a WeakRef's target survives the job that created it).
const collected = async (ref: WeakRef<object>): Promise<boolean> => {
  for (let round = 0; round < 10 && ref.deref() !== undefined; round++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    collectGarbage();
  }
  return ref.deref() === undefined;
};

describe('an idle cloudlink', () => {
  let db: Database;
  let app: FastifyInstance;
  let url: string;
  const upgrades: WeakRef<object>[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    app = buildServer(createTestContext(db));
    app.addHook('onRequest', async (request) => {
      if (request.url === cloudlinkPath)
        upgrades.push(new WeakRef(request), new WeakRef(request.raw));
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  it('keeps nothing of its upgrade request, and negotiates no compression', async () => {
    const organization = await fx.createOrganization(db, 'Memory');
    const fleet = await fx.createFleet(db, organization, 'Idle');
    const device = await fx.createDevice(db, fleet.id, 'idle');
    const key = await createApiKey(db, device.actorId, { name: 'device key' });
    // The client offers permessage-deflate (ws's default); the server declines it.
    const fake = await connectFakeDevice(url, key, { uuid: device.uuid });
    try {
      const deadline = Date.now() + 5_000;
      while ((await db.query('SELECT 1 FROM "cloudlink_session"')).rowCount === 0) {
        if (Date.now() > deadline) throw new Error('timed out waiting for the session');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(fake.socket.extensions).toBe('');
      expect(upgrades).toHaveLength(2);
      for (const ref of upgrades) expect(await collected(ref)).toBe(true);
      expect(fake.socket.readyState).toBe(fake.socket.OPEN);
    } finally {
      await fake.close();
    }
  });
});
