// SSH public keys: the rules the console's form and the
// server's write hook share. The server also parses the key; the pattern is the form's quick check.

export const sshKeyTypes = [
  'ssh-rsa',
  'ssh-dss',
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
] as const;

export type SshKeyType = (typeof sshKeyTypes)[number];

export const isSshKeyType = (value: string): value is SshKeyType =>
  sshKeyTypes.some((known) => known === value);

export const sshKeyMessages = {
  titleRequired: 'The key title is mandatory!',
  keyRequired: 'The key is mandatory!',
  invalid: `The key is not a valid SSH public key: it must be one of ${sshKeyTypes.join(', ')}, then its base64 body, then an optional comment`,
  duplicate: 'You have already saved this key',
} as const;

// "<type> <base64 body> [comment]".
const keyPattern = /^(\S+)\s+([A-Za-z0-9+/]+={0,2})(\s+.*)?$/s;

export type SplitSshKey = { type: SshKeyType; body: string; comment: string | null };

// The parts of a typed key, or undefined when it does not have the form of one.
export const splitSshKey = (typed: string): SplitSshKey | undefined => {
  const match = keyPattern.exec(typed.trim());
  if (!match) return undefined;
  const [, type = '', body = '', comment] = match;
  if (!isSshKeyType(type)) return undefined;
  const trimmedComment = comment?.trim().replace(/\s+/g, ' ') ?? '';
  return { type, body, comment: trimmedComment === '' ? null : trimmedComment };
};

// What the form says before sending (the server has the last word: it decodes the body).
export const sshKeyFormProblems = (
  title: string,
  key: string,
): { title?: string; key?: string } => ({
  ...(title.trim() === '' ? { title: sshKeyMessages.titleRequired } : {}),
  ...(key.trim() === ''
    ? { key: sshKeyMessages.keyRequired }
    : splitSshKey(key) === undefined
      ? { key: sshKeyMessages.invalid }
      : {}),
});

// Titles of imported keys: "GitHub Key N", numbered past the titles the user already has.
export const importedKeyTitles = (
  count: number,
  existingTitles: readonly string[],
  prefix = 'GitHub Key',
): string[] => {
  const taken = new Set(existingTitles);
  const titles: string[] = [];
  for (let number = 1; titles.length < count; number += 1) {
    const title = `${prefix} ${number}`;
    if (!taken.has(title)) titles.push(title);
  }
  return titles;
};

// What an import did, per key (what the SSH key messages report).
export type SshKeyImportResult = { saved: number; alreadySaved: number; failed: number };

export const sshKeyImportMessage = (
  result: SshKeyImportResult,
): { severity: 'success' | 'info' | 'warning' | 'error'; text: string } => {
  const total = result.saved + result.alreadySaved + result.failed;
  if (total === 0) return { severity: 'info', text: 'No public keys were found for this user' };
  if (result.saved === total) return { severity: 'success', text: `Saved ${total} keys` };
  if (result.alreadySaved === total) {
    return { severity: 'info', text: 'All of these keys are already saved' };
  }
  if (result.failed === total) return { severity: 'error', text: 'Failed to save the SSH keys' };
  return {
    severity: 'warning',
    text: `Failed to save some SSH keys: ${result.saved} saved, ${result.alreadySaved} already saved, ${result.failed} failed`,
  };
};
