import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import {
  addOrganizationMember,
  createFleet,
  createOrganization,
  createUser,
  type FleetFixture,
} from '../../test-support/fixtures.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import { registerGitRemote } from '../git-remote/register-git-remote.js';
import { registerRegistry } from '../registry/register-registry.js';
import { credentialRateLimitMessage } from './credential-throttle.js';

// Wrong passwords of Basic credentials (API keys, session tokens) on the git remote and the
// registry's token service count against the client address like logins do
// (FLOTILLA_LOGIN_ADDRESS_RATE_LIMIT a minute); right ones are not counted.

const limit = 3;
let db: Database;
let app: FastifyInstance;
let clock: Date;
let workDir: string;
let fleet: FleetFixture;
let key = '';

const basic = (password: string): string =>
  `Basic ${Buffer.from(`user:${password}`).toString('base64')}`;

type Route = 'git' | 'registry';

const request = (route: Route, password: string, remoteAddress: string) =>
  app.inject({
    method: 'GET',
    url:
      route === 'git'
        ? `/git/${fleet.slug}.git/info/refs?service=git-upload-pack`
        : '/auth/v1/token?service=registry.test',
    headers: { authorization: basic(password) },
    remoteAddress,
  });

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'flotilla-credential-throttle-'));
  db = await createTestDatabase();
  clock = new Date();
  const ctx = createTestContext(db, {
    now: () => clock,
    config: { dataDir: workDir, loginAddressRateLimitPerMinute: limit },
  });
  app = await createTestApp(ctx, registerGitRemote, registerRegistry);
  const owner = await createUser(db, 'owner');
  const organization = await createOrganization(db, 'acme');
  await addOrganizationMember(db, owner.userId, organization, 'administrator');
  fleet = await createFleet(db, organization, 'builds');
  key = await createApiKey(db, owner.actorId, { name: 'git' });
});

afterAll(async () => {
  await app.close();
  await db.close();
  await rm(workDir, { recursive: true, force: true });
});

describe.each<Route>(['git', 'registry'])('wrong Basic passwords on the %s route', (route) => {
  // Each route's own addresses: the buckets are shared between the routes on purpose.
  const attacker = route === 'git' ? '198.51.100.1' : '198.51.100.2';
  const other = route === 'git' ? '203.0.113.1' : '203.0.113.2';

  it('answers 429 with Retry-After past the limit, other clients unaffected', async () => {
    for (let attempt = 0; attempt < limit; attempt += 1) {
      expect((await request(route, `wrong-${attempt}`, attacker)).statusCode).toBe(401);
    }
    const refused = await request(route, 'wrong-again', attacker);
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toBe(credentialRateLimitMessage);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Nothing is checked while refused: the right key gets the same answer from that address.
    expect((await request(route, key, attacker)).statusCode).toBe(429);
    // Another client's right credentials pass, as many times as it likes.
    for (let attempt = 0; attempt < limit + 2; attempt += 1) {
      expect((await request(route, key, other)).statusCode).toBe(200);
    }
    // The window slides: a minute later the address may try again.
    clock = new Date(clock.getTime() + 61_000);
    expect((await request(route, key, attacker)).statusCode).toBe(200);
    expect((await request(route, 'wrong', attacker)).statusCode).toBe(401);
  });

  it('never refuses right passwords, however many arrive at once from one address', async () => {
    // Devices behind one address fetch registry tokens together when a release rolls out.
    const fleetBehindNat = route === 'git' ? '192.0.2.1' : '192.0.2.2';
    const answers = await Promise.all(
      Array.from({ length: limit * 4 }, () => request(route, key, fleetBehindNat)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
    // Nothing was counted: the address still has its whole allowance of wrong guesses.
    for (let attempt = 0; attempt < limit; attempt += 1) {
      expect((await request(route, `wrong-${attempt}`, fleetBehindNat)).statusCode).toBe(401);
    }
    expect((await request(route, 'wrong-again', fleetBehindNat)).statusCode).toBe(429);
  });
});
