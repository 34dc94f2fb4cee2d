import { describe, expect, it } from 'vitest';
import {
  importedKeyTitles,
  sshKeyFormProblems,
  sshKeyImportMessage,
  sshKeyMessages,
  splitSshKey,
} from './ssh-key-rules.js';

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

  it("gives the console's messages for missing title and key", () => {
    expect(sshKeyFormProblems('', '')).toEqual({
      title: sshKeyMessages.titleRequired,
      key: sshKeyMessages.keyRequired,
    });
    expect(sshKeyFormProblems('laptop', 'not a key')).toEqual({ key: sshKeyMessages.invalid });
    expect(sshKeyFormProblems('laptop', 'ssh-rsa AAAA')).toEqual({});
  });
});

describe('SSH key import', () => {
  it('numbers imported titles past the ones in use', () => {
    expect(importedKeyTitles(3, ['laptop', 'GitHub Key 2'])).toEqual([
      'GitHub Key 1',
      'GitHub Key 3',
      'GitHub Key 4',
    ]);
    expect(importedKeyTitles(0, [])).toEqual([]);
  });

  it('says what happened to the keys', () => {
    expect(sshKeyImportMessage({ saved: 0, alreadySaved: 0, failed: 0 }).severity).toBe('info');
    expect(sshKeyImportMessage({ saved: 2, alreadySaved: 0, failed: 0 }).text).toBe('Saved 2 keys');
    expect(sshKeyImportMessage({ saved: 0, alreadySaved: 2, failed: 0 }).text).toMatch(/already/);
    expect(sshKeyImportMessage({ saved: 0, alreadySaved: 0, failed: 2 }).severity).toBe('error');
    expect(sshKeyImportMessage({ saved: 1, alreadySaved: 1, failed: 1 }).text).toBe(
      'Failed to save some SSH keys: 1 saved, 1 already saved, 1 failed',
    );
  });
});
