import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { hashTestPassword } from './test-passwords.js';
import type { Database } from '../infra/db/database.js';
import { buildServer } from '../server.js';
import { addOrganizationMember, createOrganization } from './fixtures.js';
import { createTestContext, type TestContextOverrides } from './test-context.js';

// The full server on a test database, with users signed in by their password as the console
// does, for the help desk's tests.
export type SupportWorld = {
  app: FastifyInstance;
  dataDir: string;
  signIn(
    username: string,
    options?: { role?: string; memberOf?: number; admin?: boolean },
  ): Promise<string>;
  organization(name: string): Promise<number>;
};

export const createSupportWorld = async (
  db: Database,
  overrides: TestContextOverrides = {},
): Promise<SupportWorld> => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-support-'));
  const app = buildServer(
    createTestContext(db, { ...overrides, config: { dataDir, ...overrides.config } }),
  );
  await app.ready();
  return {
    app,
    dataDir,
    organization: (name) => createOrganization(db, name),
    async signIn(username, options = {}) {
      const { rows } = await db.query<{ id: number }>(
        `INSERT INTO "user" ("username", "email", "password_hash") VALUES ($1, $2, $3) RETURNING "id"`,
        [username, `${username}@example.com`, await hashTestPassword(`${username}-password`)],
      );
      const id = rows[0]?.id;
      if (id === undefined) throw new Error('no user');
      if (options.role) {
        await db.query(`INSERT INTO "user_platform_role" ("user", "role") VALUES ($1, $2)`, [
          id,
          options.role,
        ]);
      }
      if (options.memberOf !== undefined) {
        await addOrganizationMember(
          db,
          id,
          options.memberOf,
          options.admin ? 'administrator' : 'member',
        );
      }
      const login = await app.inject({
        method: 'POST',
        url: '/login_',
        payload: { username, password: `${username}-password` },
      });
      if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
      return login.body;
    },
  };
};

// A multipart/form-data body with one file, as a browser's FormData sends it.
export const multipartFile = async (
  field: string,
  fileName: string,
  type: string,
  bytes: Buffer,
): Promise<{ payload: Buffer; contentType: string }> => {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), fileName);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') ?? '',
  };
};
