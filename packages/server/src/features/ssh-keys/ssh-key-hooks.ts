import { sshKeyMessages } from '@flotilla/shared/ssh-keys/ssh-key-rules';
import { badRequest, conflict } from '../../infra/errors/api-error.js';
import type { HookRegistry } from '../../infra/odata/hooks.js';
import { requireUserSessionMay } from '../../infra/auth/session-rules.js';
import { parsePublicKey } from './parse-public-key.js';

const isBlank = (value: unknown): boolean => typeof value !== 'string' || value.trim() === '';

// /v7 writes of user__has__public_key (balena-sdk key.create, the console's SSH keys tab): the
// console's messages for a missing title or key, the key validated by parsing and stored normalized
// with its md5 fingerprint, and a key its user already holds refused.
export const registerSshKeyHooks = (hooks: HookRegistry): void => {
  hooks.add('user__has__public_key', {
    async prepareCreate(ctx, body) {
      // An SSH key is lasting access: not for an application's token or an administrator's
      // login-as session (shared/auth/session-kinds.ts).
      requireUserSessionMay(ctx.actor, 'manage-ssh-keys');
      if (isBlank(body.title)) throw badRequest(sshKeyMessages.titleRequired);
      if (isBlank(body.public_key)) throw badRequest(sshKeyMessages.keyRequired);
    },
    async beforeCreate(ctx, values) {
      if (typeof values.public_key !== 'string') throw badRequest(sshKeyMessages.keyRequired);
      if (typeof values.title === 'string') values.title = values.title.trim();
      const parsed = parsePublicKey(values.public_key);
      values.public_key = parsed.normalized;
      values.fingerprint = parsed.fingerprint;
      const { rows } = await ctx.tx.query(
        'SELECT 1 FROM "user__has__public_key" WHERE "user" = $1 AND "fingerprint" = $2',
        [values.user ?? null, parsed.fingerprint],
      );
      if (rows.length > 0) throw conflict(sshKeyMessages.duplicate);
    },
    async beforeDelete(ctx) {
      requireUserSessionMay(ctx.actor, 'manage-ssh-keys');
    },
    async beforeUpdate(ctx, _ids, values) {
      requireUserSessionMay(ctx.actor, 'manage-ssh-keys');
      if ('title' in values && isBlank(values.title)) {
        throw badRequest(sshKeyMessages.titleRequired);
      }
    },
  });
};
