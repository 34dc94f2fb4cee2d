import { samlPasswordLoginRefusal } from '@flotilla/shared/auth/saml-accounts';
import { samlSignInMessages } from '@flotilla/shared/sso/saml-sign-in';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashTestPassword } from '../../test-support/test-passwords.js';
import * as fx from '../../test-support/fixtures.js';
import {
  type IdpUser,
  type NextResponse,
  postedResponseOf,
  type PostedResponse,
  type SamlTestIdp,
  startSamlTestIdp,
} from '../../test-support/saml-idp.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { issueSessionToken } from '../auth/issue-session-token.js';

// SAML sign-in end to end: our server redirects to a real identity provider running on this
// machine (test-support/saml-idp.ts, signing with its own key), the browser's form post reaches
// the assertion consumer service, and the console finalizes the one-time code into a session.
let server: TestServer;
let idp: SamlTestIdp;
let acme: number;
let field: number;

// The server is at 127.0.0.1; it names itself localhost in the addresses it hands out.
const local = (url: string) => url.replace('//localhost:', '//127.0.0.1:');

const startSignIn = async (identifier = 'acme-sso'): Promise<PostedResponse> => {
  const start = await fetch(`${server.url}/auth/saml/${identifier}`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  const location = start.headers.get('location') ?? '';
  expect(location.startsWith(`${idp.ssoUrl}?SAMLRequest=`)).toBe(true);
  return postedResponseOf(await (await fetch(location)).text());
};

const post = async (form: PostedResponse): Promise<URL> => {
  const response = await fetch(local(form.acsUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ SAMLResponse: form.samlResponse, RelayState: form.relayState }),
  });
  expect(response.status).toBe(303);
  return new URL(response.headers.get('location') ?? '');
};

const signIn = async (user: IdpUser, next: NextResponse = {}): Promise<URL> => {
  idp.signInAs(user, next);
  return post(await startSignIn());
};

const finalize = (code: string, token?: string) =>
  fetch(`${server.url}/auth/saml/finalize`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ code }),
  });

const whoami = async (token: string) => {
  const response = await fetch(`${server.url}/user/v1/whoami`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as unknown;
};

const userCount = async (): Promise<number> => {
  const { rows } = await server.db.query<{ n: number }>(
    'SELECT count(*)::integer AS "n" FROM "user"',
  );
  return rows[0]?.n ?? -1;
};

beforeAll(async () => {
  server = await startTestServer();
  idp = await startSamlTestIdp();
  acme = await fx.createOrganization(server.db, 'acme');
  field = await fx.createTeam(server.db, acme, 'field');
  const { rows } = await server.db.query<{ id: number }>(
    `INSERT INTO "identity_provider" ("sso_identifier", "entry_point", "issuer", "certificate")
     VALUES ('acme-sso', $1, $2, $3) RETURNING "id"`,
    [idp.ssoUrl, idp.entityId, idp.certificate],
  );
  await server.db.query(
    `INSERT INTO "identity_provider_membership" ("organization", "is_authorized_by__identity_provider", "grants_access_to__team")
     VALUES ($1, $2, $3)`,
    [acme, rows[0]?.id ?? 0, field],
  );
});

afterAll(async () => {
  await idp.close();
  await server.close();
});

describe('SAML sign-in', () => {
  let users: number;
  beforeEach(async () => {
    users = await userCount();
  });

  it('creates a new user just in time, in the provider’s organization and default team', async () => {
    const landing = await signIn({
      nameId: 'jit-1',
      email: 'jit@corp.example',
      displayName: 'Jit Person',
    });
    expect(landing.pathname).toBe('/saml/callback/signon');
    const code = landing.searchParams.get('code') ?? '';
    const response = await finalize(code);
    expect(response.status).toBe(200);
    const token = await response.text();
    expect(await whoami(token)).toMatchObject({ email: 'jit@corp.example' });
    const { rows } = await server.db.query<{
      verified: boolean;
      password: string | null;
      role: string;
      team: number;
      display: string;
    }>(
      `SELECT u."is_verified" AS "verified", u."password_hash" AS "password", r."name" AS "role",
              tm."is_member_of__team" AS "team", s."display_name" AS "display"
         FROM "user" u
         JOIN "saml_account" s ON s."belongs_to__user" = u."id"
         JOIN "organization_membership" m ON m."user" = u."id" AND m."is_member_of__organization" = $1
         JOIN "organization_membership_role" r ON r."id" = m."organization_membership_role"
         JOIN "team_membership" tm ON tm."user" = u."id"
        WHERE lower(u."email") = 'jit@corp.example'`,
      [acme],
    );
    expect(rows).toEqual([
      { verified: true, password: null, role: 'member', team: field, display: 'Jit Person' },
    ]);
    // The code is spent.
    const again = await finalize(code);
    expect(again.status).toBe(400);
    expect(await again.text()).toBe(samlSignInMessages.invalidCode);
  });

  it('signs the same person in again without creating anyone', async () => {
    const landing = await signIn({ nameId: 'jit-1', email: 'jit@corp.example' });
    expect(landing.pathname).toBe('/saml/callback/signon');
    const token = await (await finalize(landing.searchParams.get('code') ?? '')).text();
    expect(await whoami(token)).toMatchObject({ email: 'jit@corp.example' });
    expect(await userCount()).toBe(users);
  });

  it('offers an existing account the merge, linked only by that user signed in', async () => {
    const alice = await fx.createUser(server.db, 'alice');
    await server.db.query('UPDATE "user" SET "password_hash" = $2 WHERE "id" = $1', [
      alice.userId,
      await hashTestPassword('alice-password'),
    ]);
    const passwordLogin = () =>
      fetch(`${server.url}/login_`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'alice@example.com', password: 'alice-password' }),
      });
    expect((await passwordLogin()).status).toBe(200);
    const mallory = await fx.createUser(server.db, 'mallory');
    const landing = await signIn({ nameId: 'alice-remote', email: 'ALICE@example.com' });
    expect(landing.pathname).toBe('/saml/callback/merge');
    expect(landing.searchParams.get('shouldMergeWith')).toBe('ALICE@example.com');
    const code = landing.searchParams.get('code') ?? '';

    const anonymous = await finalize(code);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).toBe(samlSignInMessages.mergeRequiresLogin);
    const someoneElse = await finalize(
      code,
      await issueSessionToken(server.ctx, server.db, mallory.userId),
    );
    expect(someoneElse.status).toBe(400);
    expect(await someoneElse.text()).toBe(samlSignInMessages.mergeEmailMismatch);
    const linkedBefore = await server.db.query(
      'SELECT 1 FROM "saml_account" WHERE "belongs_to__user" = $1',
      [alice.userId],
    );
    expect(linkedBefore.rows).toHaveLength(0);

    const merged = await finalize(
      code,
      await issueSessionToken(server.ctx, server.db, alice.userId),
    );
    expect(merged.status).toBe(200);
    expect(await whoami(await merged.text())).toMatchObject({ id: alice.userId });
    const linked = await server.db.query(
      'SELECT 1 FROM "saml_account" WHERE "belongs_to__user" = $1',
      [alice.userId],
    );
    expect(linked.rows).toHaveLength(1);
    expect(await userCount()).toBe(users + 2);
    // From now on the provider signs alice in, and her password no longer does.
    const refused = await passwordLogin();
    expect(refused.status).toBe(401);
    expect(await refused.text()).toBe(samlPasswordLoginRefusal);
    const next = await signIn({ nameId: 'alice-remote', email: 'alice@example.com' });
    expect(next.pathname).toBe('/saml/callback/signon');
  });

  const refusals: [string, NextResponse, RegExp][] = [
    ['a tampered assertion', { tamper: true }, /refused: Invalid (document )?signature/],
    [
      'an assertion signed with another key',
      { foreignKey: true },
      /refused: Invalid (document )?signature/,
    ],
    [
      'an assertion for another audience',
      { audience: 'https://other.example.com/sp' },
      /refused: SAML assertion audience mismatch/,
    ],
    [
      'an assertion for another recipient',
      { recipient: 'https://other.example.com/acs' },
      /addressed to another recipient/,
    ],
    ['an expired assertion', { clockOffsetMs: -60 * 60 * 1000 }, /refused: SAML assertion expired/],
  ];
  for (const [name, next, reason] of refusals) {
    it(`refuses ${name}, creating nobody`, async () => {
      const landing = await signIn(
        { nameId: `refused-${name}`, email: 'refused@corp.example' },
        next,
      );
      expect(landing.pathname).toBe('/login');
      expect(landing.searchParams.get('saml_error')).toMatch(reason);
      expect(await userCount()).toBe(users);
    });
  }

  it('accepts an assertion once: a replayed response is refused', async () => {
    idp.signInAs({ nameId: 'replay', email: 'replay@corp.example' });
    const form = await startSignIn();
    expect((await post(form)).pathname).toBe('/saml/callback/signon');
    const replayed = await post(form);
    expect(replayed.pathname).toBe('/login');
    expect(replayed.searchParams.get('saml_error')).toBe('This assertion was already used');
    expect(await userCount()).toBe(users + 1);
  });

  it('answers an unknown identifier with 404, and publishes the service provider metadata', async () => {
    const unknown = await fetch(`${server.url}/auth/saml/nobody-here`, { redirect: 'manual' });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe(samlSignInMessages.unknownIdentifier);
    // A provider whose organizations are gone serves nobody.
    await server.db.query(
      `INSERT INTO "identity_provider" ("sso_identifier", "entry_point", "issuer", "certificate")
       VALUES ('orphan-sso', $1, $2, $3)`,
      [idp.ssoUrl, idp.entityId, idp.certificate],
    );
    const orphan = await fetch(`${server.url}/auth/saml/orphan-sso`, { redirect: 'manual' });
    expect(orphan.status).toBe(404);
    const metadata = await fetch(`${server.url}/auth/saml/acme-sso/metadata`);
    expect(metadata.status).toBe(200);
    const xml = await metadata.text();
    expect(xml).toContain('AssertionConsumerService');
    expect(xml).toContain('/auth/saml/acme-sso/callback');
  });
});
