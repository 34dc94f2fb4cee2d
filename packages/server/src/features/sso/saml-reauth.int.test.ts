import {
  freshAuthenticationRequiredMessage,
  reauthenticationWindowMs,
} from '@flotilla/shared/auth/reauthentication';
import { samlSignInMessages } from '@flotilla/shared/sso/saml-sign-in';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as fx from '../../test-support/fixtures.js';
import {
  type IdpUser,
  postedResponseOf,
  type SamlTestIdp,
  startSamlTestIdp,
} from '../../test-support/saml-idp.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { issueSessionToken } from '../auth/issue-session-token.js';

// Re-authentication of a SAML account (which has no password) through its identity provider, a
// real one on this machine (test-support/saml-idp.ts). The server's clock is a fake one that
// starts at the real time: the provider's assertions carry the real time.
let server: TestServer;
let idp: SamlTestIdp;
let clock: Date;

const local = (url: string) => url.replace('//localhost:', '//127.0.0.1:');

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

// Through the provider as `user`, from `start` (the IdP's address): where the ACS sends the
// browser back.
const throughIdp = async (start: string, user: IdpUser, relayState?: string): Promise<URL> => {
  idp.signInAs(user);
  const form = postedResponseOf(await (await fetch(start)).text());
  const response = await fetch(local(form.acsUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      SAMLResponse: form.samlResponse,
      RelayState: relayState ?? form.relayState,
    }),
  });
  expect(response.status).toBe(303);
  return new URL(response.headers.get('location') ?? '');
};

// Signs `user` in (just in time the first time); answers their user id.
const signIn = async (user: IdpUser): Promise<number> => {
  const start = await fetch(`${server.url}/auth/saml/acme-sso`, { redirect: 'manual' });
  const landing = await throughIdp(start.headers.get('location') ?? '', user);
  const response = await fetch(`${server.url}/auth/saml/finalize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: landing.searchParams.get('code') }),
  });
  expect(response.status).toBe(200);
  const { id } = decodeJwt(await response.text());
  if (typeof id !== 'number') throw new Error('No user id');
  return id;
};

// A session signed in longer ago than the re-authentication window.
const staleSession = (userId: number) =>
  issueSessionToken(server.ctx, server.db, userId, {
    authTime: clock.getTime() - reauthenticationWindowMs,
  });

const startReauth = async (token: string): Promise<string> => {
  const response = await fetch(`${server.url}/auth/saml/reauth`, {
    method: 'POST',
    headers: bearer(token),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return z.object({ url: z.string() }).parse(await response.json()).url;
};

const reauthenticate = (token: string, code: string) =>
  fetch(`${server.url}/auth/saml/reauthenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...bearer(token) },
    body: JSON.stringify({ code }),
  });

const totpSetup = (token: string) =>
  fetch(`${server.url}/auth/totp/setup`, { headers: bearer(token) });

const userCount = async (): Promise<number> => {
  const { rows } = await server.db.query<{ n: number }>('SELECT count(*)::int AS "n" FROM "user"');
  return rows[0]?.n ?? -1;
};

const pat: IdpUser = { nameId: 'pat-1', email: 'pat@corp.example' };
const quinn: IdpUser = { nameId: 'quinn-1', email: 'quinn@corp.example' };

beforeAll(async () => {
  clock = new Date();
  server = await startTestServer({ now: () => clock });
  idp = await startSamlTestIdp();
  const acme = await fx.createOrganization(server.db, 'acme');
  const { rows } = await server.db.query<{ id: number }>(
    `INSERT INTO "identity_provider" ("sso_identifier", "entry_point", "issuer", "certificate")
     VALUES ('acme-sso', $1, $2, $3) RETURNING "id"`,
    [idp.ssoUrl, idp.entityId, idp.certificate],
  );
  await server.db.query(
    `INSERT INTO "identity_provider_membership" ("organization", "is_authorized_by__identity_provider")
     VALUES ($1, $2)`,
    [acme, rows[0]?.id ?? 0],
  );
});

afterAll(async () => {
  await idp?.close();
  await server?.close();
});

describe('re-authentication through the SAML identity provider', () => {
  it('lets a SAML account confirm itself and act, until the window ends', async () => {
    const token = await staleSession(await signIn(pat));
    expect(await (await totpSetup(token)).text()).toContain(freshAuthenticationRequiredMessage);

    const landing = await throughIdp(await startReauth(token), pat);
    expect(landing.pathname).toBe('/saml/callback/reauth');
    const code = landing.searchParams.get('code') ?? '';
    // The code signs nobody in.
    const finalized = await fetch(`${server.url}/auth/saml/finalize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect([finalized.status, await finalized.text()]).toEqual([
      400,
      samlSignInMessages.invalidCode,
    ]);
    const response = await reauthenticate(token, code);
    expect(response.status).toBe(200);
    const renewed = await response.text();
    expect(decodeJwt(renewed)).toMatchObject({ authTime: clock.getTime() });
    expect((await totpSetup(renewed)).status).toBe(200);
    // Spent.
    expect((await reauthenticate(token, code)).status).toBe(400);

    clock = new Date(clock.getTime() + reauthenticationWindowMs);
    expect(await (await totpSetup(renewed)).text()).toContain(freshAuthenticationRequiredMessage);
    clock = new Date();
  });

  it("refuses another identity's confirmation, and creates nobody for an unknown one", async () => {
    const patToken = await staleSession(await signIn(pat));
    await signIn(quinn);
    const landing = await throughIdp(await startReauth(patToken), quinn);
    const response = await reauthenticate(patToken, landing.searchParams.get('code') ?? '');
    expect([response.status, await response.text()]).toEqual([
      400,
      samlSignInMessages.reauthWrongAccount,
    ]);

    const users = await userCount();
    const stranger = await throughIdp(await startReauth(patToken), {
      nameId: 'stranger-1',
      email: 'stranger@corp.example',
    });
    expect(stranger.pathname).toBe('/saml/callback/reauth');
    expect(stranger.searchParams.get('saml_error')).toBe(samlSignInMessages.reauthNotLinked);
    expect(await userCount()).toBe(users);
  });

  it('is refused to an account that did not come from an identity provider', async () => {
    const { userId } = await fx.createUser(server.db, 'plain');
    const token = await issueSessionToken(server.ctx, server.db, userId);
    const response = await fetch(`${server.url}/auth/saml/reauth`, {
      method: 'POST',
      headers: bearer(token),
    });
    expect([response.status, await response.text()]).toEqual([
      400,
      samlSignInMessages.reauthNoAccount,
    ]);
  });
});
