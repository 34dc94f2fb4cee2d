import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import { issueSessionToken } from '../features/auth/issue-session-token.js';
import type { Config } from '../infra/config/config.js';
import type { Database } from '../infra/db/database.js';
import { buildServer } from '../server.js';
import { addOrganizationMember, createOrganization, createUser } from './fixtures.js';
import { createTestContext } from './test-context.js';
import { createTestDatabase } from './test-database.js';

// What the billing integration tests share: a server with billing on over a clock the test moves,
// an organization with an administrator (billing access), a plain member (none) and a platform
// administrator, and calls signed in afresh at the clock's time (sessions expire as it moves).

export const dayMs = 24 * 60 * 60 * 1000;

export type BillingCall = {
  status: number;
  body: string;
  raw: Buffer;
  headers: Record<string, unknown>;
  json: <T = unknown>() => T;
};

export type BillingWorld = {
  db: Database;
  ctx: AppContext;
  app: FastifyInstance;
  organization: number;
  admin: number;
  member: number;
  platformAdmin: number;
  now: () => Date;
  setNow: (at: Date) => void;
  advanceDays: (days: number) => void;
  call: (
    userId: number,
    method: 'GET' | 'PATCH' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) => Promise<BillingCall>;
  close: () => Promise<void>;
};

export const startBillingWorld = async (options: {
  start: Date;
  organizationName: string;
  config?: Partial<Config>;
}): Promise<BillingWorld> => {
  let clock = options.start;
  const db = await createTestDatabase();
  const ctx = createTestContext(db, {
    config: { billingEnabled: true, ...options.config },
    now: () => clock,
  });
  const app = buildServer(ctx);
  await app.ready();
  const prefix = options.organizationName.toLowerCase();
  const organization = await createOrganization(db, options.organizationName);
  const owner = await createUser(db, `${prefix}-owner`);
  const reader = await createUser(db, `${prefix}-reader`);
  const operator = await createUser(db, `${prefix}-operator`);
  await addOrganizationMember(db, owner.userId, organization, 'administrator');
  await addOrganizationMember(db, reader.userId, organization, 'member');
  await db.query(`INSERT INTO "user_platform_role" ("user", "role") VALUES ($1, 'balena_admin')`, [
    operator.userId,
  ]);
  return {
    db,
    ctx,
    app,
    organization,
    admin: owner.userId,
    member: reader.userId,
    platformAdmin: operator.userId,
    now: () => clock,
    setNow: (at) => {
      clock = at;
    },
    advanceDays: (days) => {
      clock = new Date(clock.getTime() + days * dayMs);
    },
    call: async (userId, method, url, payload) => {
      const token = await issueSessionToken(ctx, db, userId);
      const response = await app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}` },
        ...(payload ? { payload } : {}),
      });
      return {
        status: response.statusCode,
        body: response.body,
        raw: response.rawPayload,
        headers: response.headers,
        json: <T = unknown>(): T => response.json<T>(),
      };
    },
    close: async () => {
      await app.close();
      await db.close();
    },
  };
};
