import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import sshpk from 'sshpk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { createUser, type UserFixture } from '../../test-support/fixtures.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { issueSessionToken } from '../auth/issue-session-token.js';
import { githubKeys } from './github-keys.js';
import { registerPublicKeyImport } from './import-public-keys.js';
import { parsePublicKey } from './parse-public-key.js';

const newKey = (): string => {
  const pem = generateKeyPairSync('ed25519')
    .publicKey.export({ type: 'spki', format: 'pem' })
    .toString();
  return sshpk.parseKey(pem, 'pem').toString('ssh').split(' ').slice(0, 2).join(' ');
};

// A local stand-in for GitHub's GET /users/:name/keys: users and their keys, or a failure.
const githubUsers = new Map<string, string[]>();
let githubFails = false;
const fakeGithub: Server = createServer((request, response) => {
  const match = /^\/users\/([^/]+)\/keys$/.exec(request.url ?? '');
  const keys = match ? githubUsers.get(decodeURIComponent(match[1] ?? '')) : undefined;
  if (githubFails) {
    response.writeHead(502).end('bad gateway');
  } else if (!keys) {
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
  } else {
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(keys.map((key, index) => ({ id: index + 1, key }))));
  }
});

let db: Database;
let app: FastifyInstance;
let token: string;
let user: UserFixture;

const importFrom = (username: string) =>
  app.inject({
    method: 'POST',
    url: '/user/v1/public-keys/import',
    headers: { authorization: `Bearer ${token}` },
    payload: { username },
  });

const titles = async (): Promise<string[]> =>
  (
    await db.query<{ title: string }>(
      'SELECT "title" FROM "user__has__public_key" WHERE "user" = $1 ORDER BY "id"',
      [user.userId],
    )
  ).rows.map((row) => row.title);

beforeAll(async () => {
  await new Promise<void>((resolve) => fakeGithub.listen(0, '127.0.0.1', resolve));
  const address = fakeGithub.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  const { port } = address;
  db = await createTestDatabase();
  const ctx = createTestContext(db);
  app = await createTestApp(ctx, (instance, context) =>
    registerPublicKeyImport(instance, context, githubKeys(`http://127.0.0.1:${port}`)),
  );
  user = await createUser(db, 'importer');
  token = await issueSessionToken(ctx, db, user.userId);
});

afterAll(async () => {
  await app.close();
  await db.close();
  await new Promise((resolve) => fakeGithub.close(resolve));
});

describe('POST /user/v1/public-keys/import', () => {
  it('saves the code-host keys as "GitHub Key N", counting held and broken keys', async () => {
    const held = newKey();
    await db.query(
      `INSERT INTO "user__has__public_key" ("user", "title", "public_key", "fingerprint")
       VALUES ($1, 'GitHub Key 1', $2, $3)`,
      [user.userId, held, parsePublicKey(held).fingerprint],
    );
    githubUsers.set('octo-cat', [newKey(), `${held} other comment`, 'ssh-rsa AAAA', newKey()]);
    const response = await importFrom('octo-cat');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ saved: 2, alreadySaved: 1, failed: 1 });
    expect(await titles()).toEqual(['GitHub Key 1', 'GitHub Key 2', 'GitHub Key 3']);
    // Again: everything is held already.
    expect((await importFrom('octo-cat')).json()).toEqual({ saved: 0, alreadySaved: 3, failed: 1 });
  });

  it('a user without keys imports nothing; unknown users, bad names and a failing host are clear errors', async () => {
    githubUsers.set('empty', []);
    expect((await importFrom('empty')).json()).toEqual({ saved: 0, alreadySaved: 0, failed: 0 });
    const unknown = await importFrom('nobody');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toBe('GitHub has no user nobody');
    const bad = await importFrom('../etc');
    expect(bad.statusCode).toBe(400);
    githubFails = true;
    const failing = await importFrom('octo-cat');
    githubFails = false;
    expect(failing.statusCode).toBe(503);
    expect(failing.body).toMatch(/GitHub did not answer usably/);
  });
});
