import { describe, expect, it } from 'vitest';
import { sshKeyFormProblems, sshKeyMessages, splitSshKey } from './ssh-key-rules.js';

describe('SSH key rules', () => {
  it('splits type, body and comment, normalizing whitespace', () => {
    expect(splitSshKey('  ssh-ed25519   AAAAC3Nza==  ada@host  laptop \n')).toEqual({
      type: 'ssh-ed25519',
      body: 'AAAAC3Nza==',
      comment: 'ada@host laptop',
    });
    expect(splitSshKey('ecdsa-sha2-nistp384 AAAA')).toEqual({
      type: 'ecdsa-sha2-nistp384',
      body: 'AAAA',
      comment: null,
    });
  });

  it('refuses other types and bodies that are not base64', () => {
    expect(splitSshKey('not a key')).toBeUndefined();
    expect(splitSshKey('ssh-ed448 AAAA')).toBeUndefined();
    expect(splitSshKey('ssh-rsa AA$A')).toBeUndefined();
    expect(splitSshKey('ssh-rsa')).toBeUndefined();
  });

  it('gives the seed messages for missing title and key', () => {
    expect(sshKeyFormProblems('', '')).toEqual({
      title: sshKeyMessages.titleRequired,
      key: sshKeyMessages.keyRequired,
    });
    expect(sshKeyFormProblems('laptop', 'not a key')).toEqual({ key: sshKeyMessages.invalid });
    expect(sshKeyFormProblems('laptop', 'ssh-rsa AAAA')).toEqual({});
  });
});
