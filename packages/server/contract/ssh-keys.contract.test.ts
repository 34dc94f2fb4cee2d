import { generateKeyPairSync } from 'node:crypto';
import { sshKeyMessages } from '@flotilla/shared/ssh-keys/ssh-key-rules';
import sshpk from 'sshpk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import { failureOf, registerUser, type RegisteredUser } from './contract-helpers.js';

// A fresh OpenSSH ed25519 public key with a comment.
const newKey = (comment = 'ada@laptop'): string => {
  const pem = generateKeyPairSync('ed25519')
    .publicKey.export({ type: 'spki', format: 'pem' })
    .toString();
  const [type = '', body = ''] = sshpk.parseKey(pem, 'pem').toString('ssh').split(' ');
  return `${type} ${body} ${comment}`;
};

describe('key: balena-sdk SSH keys against Flotilla', () => {
  let server: TestServer;
  let ada: RegisteredUser;
  let bob: RegisteredUser;

  beforeAll(async () => {
    server = await startTestServer();
    ada = await registerUser(server.url, 'sshkeys');
    bob = await registerUser(server.url, 'sshother');
  });

  afterAll(async () => {
    await server?.close();
  });

  it('create stores a valid key with its md5 fingerprint; getAll lists it; remove deletes it', async () => {
    const key = newKey();
    const created = await ada.sdk.models.key.create('laptop', `  ${key}  `);
    expect(created).toMatchObject({ title: 'laptop', public_key: key });
    const listed = await ada.sdk.models.key.getAll();
    expect(listed.map((row) => row.id)).toContain(created.id);
    const [row] = await ada.sdk.pine.get({
      resource: 'user__has__public_key',
      options: { $filter: { id: created.id } },
    });
    const body = key.split(' ')[1] ?? '';
    expect(row).toMatchObject({
      fingerprint: sshpk.parseKey(`ssh-ed25519 ${body}`, 'ssh').fingerprint('md5').toString('hex'),
    });
    // Nobody else sees it.
    expect((await bob.sdk.models.key.getAll()).map((other) => other.id)).not.toContain(created.id);

    await ada.sdk.models.key.remove(created.id);
    expect((await ada.sdk.models.key.getAll()).map((left) => left.id)).not.toContain(created.id);
  });

  it('refuses a missing title or key, and keys that do not decode, storing nothing', async () => {
    const before = (await ada.sdk.models.key.getAll()).length;
    const cases: [string, string, string][] = [
      ['', newKey(), sshKeyMessages.titleRequired],
      ['laptop', '', sshKeyMessages.keyRequired],
      ['laptop', 'not a key', sshKeyMessages.invalid],
      ['laptop', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKey user@host', sshKeyMessages.invalid],
      ['laptop', newKey().replace('ssh-ed25519', 'ssh-rsa'), sshKeyMessages.invalid],
    ];
    for (const [title, key, message] of cases) {
      const error = await failureOf(ada.sdk.models.key.create(title, key));
      expect(error.statusCode, `${title} / ${key}`).toBe(400);
      expect(error.message).toContain(message);
    }
    expect(await ada.sdk.models.key.getAll()).toHaveLength(before);
  });

  it('refuses a key the user already holds, whatever its comment; another user may hold it', async () => {
    const key = newKey('first');
    await ada.sdk.models.key.create('first', key);
    const again = await failureOf(
      ada.sdk.models.key.create('again', key.replace('first', 'second')),
    );
    expect(again.statusCode).toBe(409);
    expect(again.message).toContain(sshKeyMessages.duplicate);
    expect((await bob.sdk.models.key.create('shared', key)).title).toBe('shared');
  });

  it('GET /auth/v1/public-keys/:username lists the keys authorized_keys style', async () => {
    const { username } = await ada.sdk.auth.getUserInfo();
    const keys = (await ada.sdk.models.key.getAll()).map((row) => row.public_key);
    const response = await fetch(`${server.url}/auth/v1/public-keys/${username.toUpperCase()}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(keys.map((key) => `${key}\n`).join(''));
    const unknown = await fetch(`${server.url}/auth/v1/public-keys/nobody_here`);
    expect(unknown.status).toBe(200);
    expect(await unknown.text()).toBe('');
  });
});
