import { createHash, generateKeyPairSync } from 'node:crypto';
import { sshKeyMessages } from '@flotilla/shared/ssh-keys/ssh-key-rules';
import sshpk from 'sshpk';
import { describe, expect, it } from 'vitest';
import { parsePublicKey } from './parse-public-key.js';

// A fresh OpenSSH public key of the given kind, without comment.
const opensshKey = (kind: 'ed25519' | 'rsa' | 'ec'): string => {
  const pair =
    kind === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : kind === 'ec'
        ? generateKeyPairSync('ec', { namedCurve: 'P-384' })
        : generateKeyPairSync('ed25519');
  const pem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const [type = '', body = ''] = sshpk.parseKey(pem, 'pem').toString('ssh').split(' ');
  return `${type} ${body}`;
};

describe('parsePublicKey', () => {
  it('accepts ed25519, RSA and ECDSA keys, keeps the comment and derives the md5 fingerprint', () => {
    for (const kind of ['ed25519', 'rsa', 'ec'] as const) {
      const key = opensshKey(kind);
      const parsed = parsePublicKey(`  ${key}   ada@laptop  `);
      expect(parsed.normalized).toBe(`${key} ada@laptop`);
      expect(parsed.fingerprint).toMatch(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
    }
  });

  it('gives the fingerprint ssh-keygen shows (md5 of the decoded body)', () => {
    const key = opensshKey('ed25519');
    const body = key.split(' ')[1] ?? '';
    const expected = createHash('md5')
      .update(Buffer.from(body, 'base64'))
      .digest('hex')
      .replace(/(..)(?!$)/g, '$1:');
    expect(parsePublicKey(key).fingerprint).toBe(expected);
  });

  it('refuses what does not decode to a key of the declared type', () => {
    const ed25519 = opensshKey('ed25519');
    const body = ed25519.split(' ')[1] ?? '';
    for (const bad of [
      'not a key',
      'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKey user@host',
      `ssh-rsa ${body}`,
      `ssh-ed25519 ${body.slice(0, -8)}`,
      `ssh-ed448 ${body}`,
    ]) {
      expect(() => parsePublicKey(bad), bad).toThrow(sshKeyMessages.invalid);
    }
  });
});
