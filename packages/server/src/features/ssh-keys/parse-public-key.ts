import { sshKeyMessages, splitSshKey } from '@flotilla/shared/ssh-keys/ssh-key-rules';
import sshpk from 'sshpk';
import { badRequest } from '../../infra/errors/api-error.js';

export type ParsedPublicKey = {
  // "<type> <body> [comment]" with single spaces, as stored.
  normalized: string;
  // MD5 of the key blob, "aa:bb:...", as `ssh-keygen -l -E md5` shows it.
  fingerprint: string;
};

// Validates an OpenSSH public key by decoding it (sshpk): one of the accepted types, a body that
// decodes to a key of that very type, in its canonical encoding. Anything else is a 400.
export const parsePublicKey = (typed: string): ParsedPublicKey => {
  const parts = splitSshKey(typed);
  if (!parts) throw badRequest(sshKeyMessages.invalid);
  let key: sshpk.Key;
  try {
    key = sshpk.parseKey(`${parts.type} ${parts.body}`, 'ssh');
  } catch {
    throw badRequest(sshKeyMessages.invalid);
  }
  // Re-encoding gives back the same type and body only for a key of the declared type.
  const [type, body] = key.toString('ssh').split(' ');
  if (type !== parts.type || body !== parts.body) throw badRequest(sshKeyMessages.invalid);
  return {
    normalized: [parts.type, parts.body, ...(parts.comment === null ? [] : [parts.comment])].join(
      ' ',
    ),
    fingerprint: key.fingerprint('md5').toString('hex'),
  };
};
