import { identityProviderMessages } from '@flotilla/shared/sso/identity-provider-rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import * as fx from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { newKeyPair } from '../../test-support/saml-idp.js';
import { createTestDatabase } from '../../test-support/test-database.js';

// Who may do what with identity providers, through /v7 and the shared permission table: the
// administrators of a provider's organizations (and the platform administrator), nobody else.
describe('identity provider permissions and rules', () => {
  let db: Database;
  let api: ODataTestApp;
  let certificate: string;
  let acme: number;
  let beta: number;
  let acmeTeam: number;
  let betaTeam: number;

  const idOf = (body: unknown): number => {
    if (typeof body === 'object' && body !== null && 'id' in body && typeof body.id === 'number') {
      return body.id;
    }
    throw new Error(`no id in ${JSON.stringify(body)}`);
  };

  const rowsOf = (body: unknown): unknown[] => {
    if (typeof body === 'object' && body !== null && 'd' in body && Array.isArray(body.d)) {
      return body.d;
    }
    throw new Error(`no rows in ${JSON.stringify(body)}`);
  };

  const providerBody = (ssoIdentifier: string, organization: number) => ({
    sso_identifier: ssoIdentifier,
    entry_point: 'https://idp.example.com/sso',
    issuer: 'https://idp.example.com/metadata',
    certificate,
    organization_id: organization,
  });

  const entryPointOf = async (id: number): Promise<string | undefined> => {
    const { rows } = await db.query<{ entry_point: string }>(
      'SELECT "entry_point" FROM "identity_provider" WHERE "id" = $1',
      [id],
    );
    return rows[0]?.entry_point;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    certificate = (await newKeyPair()).cert;
    acme = await fx.createOrganization(db, 'acme');
    beta = await fx.createOrganization(db, 'beta');
    acmeTeam = await fx.createTeam(db, acme, 'field');
    betaTeam = await fx.createTeam(db, beta, 'office');
    const world: [string, [number, 'administrator' | 'member'][]][] = [
      ['ann', [[acme, 'administrator']]],
      ['ben', [[acme, 'member']]],
      ['cat', [[beta, 'administrator']]],
      ['dan', []],
      [
        'eve',
        [
          [acme, 'administrator'],
          [beta, 'administrator'],
        ],
      ],
    ];
    for (const [name, memberships] of world) {
      const user = await fx.createUser(db, name);
      for (const [organization, role] of memberships) {
        await fx.addOrganizationMember(db, user.userId, organization, role);
      }
      api.actors.set(name, userActor(user));
    }
    const zoe = await fx.createUser(db, 'zoe');
    api.actors.set('zoe', userActor(zoe, ['admin.home']));
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  it('are created by an administrator of the organization, or the platform administrator', async () => {
    for (const refused of ['ben', 'cat', 'dan']) {
      const response = await api.send(
        'POST',
        '/identity_provider',
        providerBody(`x-${refused}`, acme),
        refused,
      );
      expect(response.status, `${refused}: ${response.text}`).toBe(401);
    }
    const { rows } = await db.query('SELECT 1 FROM "identity_provider"');
    expect(rows).toHaveLength(0);
    const created = await api.send(
      'POST',
      '/identity_provider',
      providerBody('acme-sso', acme),
      'ann',
    );
    expect(created.status, created.text).toBe(201);
    const byAdmin = await api.send(
      'POST',
      '/identity_provider',
      providerBody('zoe-sso', beta),
      'zoe',
    );
    expect(byAdmin.status, byAdmin.text).toBe(201);
    const memberships = await db.query<{ organization: number }>(
      'SELECT "organization" FROM "identity_provider_membership" WHERE "is_authorized_by__identity_provider" = $1',
      [idOf(created.body)],
    );
    expect(memberships.rows).toEqual([{ organization: acme }]);
  });

  it('are read, changed and their organizations listed by their administrators only', async () => {
    const provider = await db.query<{ id: number }>(
      `SELECT "id" FROM "identity_provider" WHERE "sso_identifier" = 'acme-sso'`,
    );
    const id = provider.rows[0]?.id ?? 0;
    const seen = async (as: string) =>
      rowsOf((await api.get(`/identity_provider?$filter=id eq ${id}`, as)).body).length;
    expect(await seen('ann')).toBe(1);
    expect(await seen('zoe')).toBe(1);
    for (const blind of ['ben', 'cat', 'dan']) expect(await seen(blind), blind).toBe(0);
    // A row the caller may not see is not theirs to change: nothing happens to it.
    for (const refused of ['ben', 'cat', 'dan']) {
      const response = await api.send(
        'PATCH',
        `/identity_provider(${id})`,
        { entry_point: 'https://evil.example.com/sso' },
        refused,
      );
      expect(response.status, refused).not.toBe(500);
      await api.send('DELETE', `/identity_provider(${id})`, null, refused);
    }
    expect(await entryPointOf(id)).toBe('https://idp.example.com/sso');
    const changed = await api.send(
      'PATCH',
      `/identity_provider(${id})`,
      { entry_point: 'https://idp.example.com/sso2' },
      'ann',
    );
    expect(changed.status, changed.text).toBe(200);
    expect(await entryPointOf(id)).toBe('https://idp.example.com/sso2');
  });

  it('take organizations from whoever administers both the provider and the organization', async () => {
    const { rows } = await db.query<{ id: number }>(
      `SELECT "id" FROM "identity_provider" WHERE "sso_identifier" = 'acme-sso'`,
    );
    const id = rows[0]?.id ?? 0;
    const attach = (as: string) =>
      api.send(
        'POST',
        '/identity_provider_membership',
        { organization: beta, is_authorized_by__identity_provider: id },
        as,
      );
    // ann administers the provider's organization, not beta; cat administers beta, not the provider.
    expect((await attach('ann')).status).toBe(401);
    const cat = await attach('cat');
    expect(cat.status).toBe(401);
    const eve = await attach('eve');
    expect(eve.status, eve.text).toBe(201);
    // Now cat administers one of its organizations: the provider is theirs to read too.
    expect(
      rowsOf((await api.get(`/identity_provider?$filter=id eq ${id}`, 'cat')).body),
    ).toHaveLength(1);

    const membership = idOf(eve.body);
    const wrongTeam = await api.send(
      'PATCH',
      `/identity_provider_membership(${membership})`,
      { grants_access_to__team: acmeTeam },
      'eve',
    );
    expect(wrongTeam.status).toBe(400);
    expect(wrongTeam.text).toBe(identityProviderMessages.teamOfOtherOrganization);
    const team = await api.send(
      'PATCH',
      `/identity_provider_membership(${membership})`,
      { grants_access_to__team: betaTeam },
      'cat',
    );
    expect(team.status, team.text).toBe(200);
    await api.send(
      'PATCH',
      `/identity_provider_membership(${membership})`,
      { grants_access_to__team: null },
      'ben',
    );
    const defaultTeam = await db.query<{ team: number | null }>(
      'SELECT "grants_access_to__team" AS "team" FROM "identity_provider_membership" WHERE "id" = $1',
      [membership],
    );
    expect(defaultTeam.rows).toEqual([{ team: betaTeam }]);

    expect(
      (await api.send('DELETE', `/identity_provider_membership(${membership})`, null, 'cat'))
        .status,
    ).toBe(200);
    const last = await db.query<{ id: number }>(
      'SELECT "id" FROM "identity_provider_membership" WHERE "is_authorized_by__identity_provider" = $1',
      [id],
    );
    const lastOne = await api.send(
      'DELETE',
      `/identity_provider_membership(${last.rows[0]?.id})`,
      null,
      'ann',
    );
    expect(lastOne.status).toBe(409);
    expect(lastOne.text).toBe(identityProviderMessages.lastOrganization);
  });

  it('refuse invalid fields with their messages, writing nothing', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [
        { sso_identifier: 'Acme SSO' },
        400,
        identityProviderMessages.ssoIdentifierInvalidCharacters,
      ],
      [{ sso_identifier: 'ab' }, 400, identityProviderMessages.ssoIdentifierTooShort],
      [{ sso_identifier: 'acme-sso' }, 409, identityProviderMessages.ssoIdentifierTaken],
      [{ entry_point: 'not a url' }, 400, identityProviderMessages.entryPointInvalid],
      [{ issuer: '  ' }, 400, identityProviderMessages.issuerRequired],
      [{ certificate: 'CERT' }, 400, identityProviderMessages.certificateInvalid],
      [
        { certificate: `${certificate}\n${certificate}` },
        400,
        identityProviderMessages.certificateInvalid,
      ],
      [
        { certificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' },
        400,
        identityProviderMessages.certificateInvalid,
      ],
    ];
    for (const [change, status, message] of cases) {
      const response = await api.send(
        'POST',
        '/identity_provider',
        { ...providerBody('fresh-sso', acme), ...change },
        'ann',
      );
      expect(response.status, JSON.stringify(change)).toBe(status);
      expect(response.text).toBe(message);
    }
    const { rows } = await db.query(
      `SELECT 1 FROM "identity_provider" WHERE "sso_identifier" = 'fresh-sso'`,
    );
    expect(rows).toHaveLength(0);
  });

  it('stores the certificate in 64-character rows', async () => {
    const oneLine = certificate.replace(/\n(?!-----END)/g, '').replace('-----', '-----');
    const body = oneLine.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
    const response = await api.send(
      'POST',
      '/identity_provider',
      {
        ...providerBody('rows-sso', acme),
        certificate: `-----BEGIN CERTIFICATE-----${body}-----END CERTIFICATE-----`,
      },
      'ann',
    );
    expect(response.status, response.text).toBe(201);
    const { rows } = await db.query<{ certificate: string }>(
      `SELECT "certificate" FROM "identity_provider" WHERE "sso_identifier" = 'rows-sso'`,
    );
    const lines = rows[0]?.certificate.split('\n') ?? [];
    expect(lines[0]).toBe('-----BEGIN CERTIFICATE-----');
    expect(lines.at(-1)).toBe('-----END CERTIFICATE-----');
    expect(lines.slice(1, -2).every((line) => line.length === 64)).toBe(true);
  });

  it('show their SAML account count to their administrators, and cannot be removed until revoked', async () => {
    const { rows } = await db.query<{ id: number }>(
      `SELECT "id" FROM "identity_provider" WHERE "sso_identifier" = 'acme-sso'`,
    );
    const id = rows[0]?.id ?? 0;
    const jit = await fx.createUser(db, 'jit');
    const account = await db.query<{ id: number }>(
      `INSERT INTO "saml_account" ("belongs_to__user", "was_generated_by__identity_provider", "remote_id")
       VALUES ($1, $2, 'jit@acme') RETURNING "id"`,
      [jit.userId, id],
    );
    const count = async (as: string) =>
      (
        await api.get(
          `/saml_account/$count?$filter=was_generated_by__identity_provider eq ${id}`,
          as,
        )
      ).text;
    expect(await count('ann')).toBe('{"d":1}');
    expect(await count('zoe')).toBe('{"d":1}');
    expect(await count('ben')).toBe('{"d":0}');
    expect(await count('dan')).toBe('{"d":0}');
    const blocked = await api.send('DELETE', `/identity_provider(${id})`, null, 'ann');
    expect(blocked.status).toBe(409);
    expect(blocked.text).toBe(identityProviderMessages.accountsExist);
    const accountId = account.rows[0]?.id ?? 0;
    await api.send('DELETE', `/saml_account(${accountId})`, null, 'ben');
    const kept = await db.query('SELECT 1 FROM "saml_account" WHERE "id" = $1', [accountId]);
    expect(kept.rows).toHaveLength(1);
    expect(
      (await api.send('DELETE', `/saml_account(${account.rows[0]?.id})`, null, 'ann')).status,
    ).toBe(200);
    expect((await api.send('DELETE', `/identity_provider(${id})`, null, 'ann')).status).toBe(200);
    const left = await db.query('SELECT 1 FROM "identity_provider" WHERE "id" = $1', [id]);
    expect(left.rows).toHaveLength(0);
  });
});
