// SSH public keys (seed 000 sections 3.5, 5 and 8.2): the rules the console's form and the
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
