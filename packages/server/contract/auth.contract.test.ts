import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import {
  type Credentials,
  expectBalenaError,
  failureOf,
  inOneYear,
  newCredentials,
  newSdk,
} from './contract-helpers.js';

// The claims balena-auth reads from a session token (iat for refresh, exp for expiry).
const jwtClaims = (token: string): Record<string, unknown> => {
  const parts = token.split('.');
  expect(parts, 'a session token is a three-part JWT').toHaveLength(3);
  const payload: unknown = JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString('utf8'));
  expect(typeof payload).toBe('object');
  return payload as Record<string, unknown>;
};

describe('auth: balena-sdk sessions against Flotilla', () => {
  let server: TestServer;
  let credentials: Credentials;
  let registeredToken: string;

  beforeAll(async () => {
    server = await startTestServer();
    credentials = newCredentials('auth');
    registeredToken = await newSdk(server.url).auth.register(credentials);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('register answers with a session JWT carrying iat and a later exp', () => {
    expect(typeof registeredToken).toBe('string');
    const claims = jwtClaims(registeredToken);
    expect(typeof claims.iat).toBe('number');
    expect(typeof claims.exp).toBe('number');
    expect(Number(claims.exp)).toBeGreaterThan(Number(claims.iat));
    // Freshly issued: iat is now (seconds), give or take clock skew.
    expect(Math.abs(Number(claims.iat) - Date.now() / 1000)).toBeLessThan(120);
    // A fresh session has passed no second factor it does not have.
    expect(claims.twoFactorRequired).not.toBe(true);
  });

  it('the registration token is itself a working session', async () => {
    const sdk = newSdk(server.url);
    await sdk.auth.loginWithToken(registeredToken);
    expect(await sdk.auth.isLoggedIn()).toBe(true);
    const whoami = await sdk.auth.whoami();
    expect(whoami?.actorType).toBe('user');
    expect(whoami && 'email' in whoami ? whoami.email : undefined).toBe(credentials.email);
  });

  it('login with the registered credentials stores a token and isLoggedIn is true', async () => {
    const sdk = newSdk(server.url);
    expect(await sdk.auth.isLoggedIn()).toBe(false);
    await sdk.auth.login(credentials);
    expect(await sdk.auth.isLoggedIn()).toBe(true);
    const token = await sdk.auth.getToken();
    expect(typeof token).toBe('string');
    expect(typeof jwtClaims(token).iat).toBe('number');
  });

  it('authenticate returns a token without storing it', async () => {
    const sdk = newSdk(server.url);
    const token = await sdk.auth.authenticate(credentials);
    expect(jwtClaims(token).exp).toEqual(expect.any(Number));
    expect(await sdk.auth.isLoggedIn()).toBe(false);
  });

  it('whoami is the user actor: id (actor), actorType user, actorTypeId (user), username, email', async () => {
    const sdk = newSdk(server.url);
    await sdk.auth.login(credentials);
    const whoami = await sdk.auth.whoami();
    expect(whoami).toBeDefined();
    if (whoami?.actorType !== 'user')
      throw new Error(`expected a user actor, got ${whoami?.actorType}`);
    expect(Number.isInteger(whoami.id)).toBe(true);
    expect(Number.isInteger(whoami.actorTypeId)).toBe(true);
    expect(whoami.email).toBe(credentials.email);
    expect(typeof whoami.username).toBe('string');
    expect(whoami.username.length).toBeGreaterThan(0);
    // getActorId is the actor id, which the api-key listing filters on.
    expect(await sdk.auth.getActorId()).toBe(whoami.id);
  });

  it('getUserInfo maps whoami: id = user id, actor = actor id, same username and email', async () => {
    const sdk = newSdk(server.url);
    await sdk.auth.login(credentials);
    const whoami = await sdk.auth.whoami();
    if (whoami?.actorType !== 'user') throw new Error('expected a user actor');
    const info = await sdk.auth.getUserInfo();
    expect(info).toEqual({
      id: whoami.actorTypeId,
      actor: whoami.id,
      email: credentials.email,
      username: whoami.username,
    });
  });

  it('two logins of one user see the same user and actor ids', async () => {
    const first = newSdk(server.url);
    const second = newSdk(server.url);
    await first.auth.login(credentials);
    await second.auth.login(credentials);
    expect(await second.auth.getUserInfo()).toEqual(await first.auth.getUserInfo());
  });

  it('getToken returns exactly the token loginWithToken stored', async () => {
    const sdk = newSdk(server.url);
    await sdk.auth.loginWithToken(registeredToken);
    expect(await sdk.auth.getToken()).toBe(registeredToken);
  });

  it('a wrong password fails with BalenaInvalidLoginCredentials', async () => {
    const sdk = newSdk(server.url);
    await expectBalenaError(
      sdk.auth.login({ email: credentials.email, password: `${credentials.password}x` }),
      'BalenaInvalidLoginCredentials',
    );
    expect(await sdk.auth.isLoggedIn()).toBe(false);
  });

  it('an unknown email fails with BalenaInvalidLoginCredentials too', async () => {
    const sdk = newSdk(server.url);
    await expectBalenaError(
      sdk.auth.authenticate({
        email: `nobody-${credentials.email}`,
        password: credentials.password,
      }),
      'BalenaInvalidLoginCredentials',
    );
  });

  it('registering an existing email fails and does not change that user', async () => {
    const sdk = newSdk(server.url);
    const error = await failureOf(
      sdk.auth.register({ email: credentials.email, password: 'Another-password-1' }),
    );
    expect(error.statusCode).toBeGreaterThanOrEqual(400);
    expect(error.statusCode).toBeLessThan(500);
    // The original password still works and the new one does not.
    await expectBalenaError(
      sdk.auth.authenticate({ email: credentials.email, password: 'Another-password-1' }),
      'BalenaInvalidLoginCredentials',
    );
    expect(typeof (await sdk.auth.authenticate(credentials))).toBe('string');
  });

  it('logout forgets the token: isLoggedIn false, whoami undefined, getToken fails', async () => {
    const sdk = newSdk(server.url);
    await sdk.auth.login(credentials);
    expect(await sdk.auth.isLoggedIn()).toBe(true);
    await sdk.auth.logout();
    // whoami before isLoggedIn: the other order makes the SDK's memoised whoami leave an
    // unhandled rejection behind when no token is stored (an SDK quirk, any server).
    expect(await sdk.auth.whoami()).toBeUndefined();
    expect(await sdk.auth.isLoggedIn()).toBe(false);
    await expectBalenaError(sdk.auth.getToken(), 'BalenaNotLoggedIn');
  });

  it('a token the server never issued is not a session', async () => {
    const sdk = newSdk(server.url);
    // Opaque, so balena-auth treats it as an API key and asks the server.
    await sdk.auth.loginWithToken('flotilla-contract-not-a-real-key-0123456789');
    expect(await sdk.auth.isLoggedIn()).toBe(false);
    expect(await sdk.auth.whoami()).toBeUndefined();
  });

  it('loginWithToken(apiKey) authenticates as the key owner', async () => {
    const owner = newSdk(server.url);
    await owner.auth.login(credentials);
    const ownerInfo = await owner.auth.getUserInfo();
    const apiKey = await owner.models.apiKey.create({
      name: 'auth-contract',
      expiryDate: inOneYear(),
    });
    expect(typeof apiKey).toBe('string');
    expect(apiKey.split('.')).not.toHaveLength(3);

    const viaKey = newSdk(server.url);
    await viaKey.auth.loginWithToken(apiKey);
    expect(await viaKey.auth.isLoggedIn()).toBe(true);
    expect(await viaKey.auth.getToken()).toBe(apiKey);
    const whoami = await viaKey.auth.whoami();
    expect(whoami).toMatchObject({
      id: ownerInfo.actor,
      actorType: 'user',
      actorTypeId: ownerInfo.id,
      username: ownerInfo.username,
      email: credentials.email,
    });
  });
});
