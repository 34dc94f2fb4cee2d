import {
  importedKeyTitles,
  type SshKeyImportResult,
} from '@flotilla/shared/ssh-keys/ssh-key-rules';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { requireSessionMay } from '../../infra/auth/session-rules.js';
import { ApiError, unauthorized } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import type { CodeHostKeys } from './github-keys.js';
import { parsePublicKey } from './parse-public-key.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

const importBody = z.object({
  username: z
    .string({ error: 'username is required' })
    .trim()
    .min(1, 'username is required')
    .max(100),
});

// At most this many keys of one code-host user are looked at.
const maxKeys = 50;

// POST /user/v1/public-keys/import {username}: the code-host user's public keys become the
// caller's SSH keys, titled "GitHub Key N"; keys the caller holds already and keys that do not
// parse are counted, not stored. Answers the counts the console's import messages show.
export const registerPublicKeyImport = (
  app: FastifyInstance,
  ctx: AppContext,
  codeHost: CodeHostKeys,
): void => {
  app.post('/user/v1/public-keys/import', { config: { access: 'user' } }, async (request) => {
    const actor = request.actor;
    if (actor.kind !== 'user') throw unauthorized();
    requireSessionMay(actor, 'manage-ssh-keys');
    const { username } = parseBody(importBody, request.body);
    const keys = (await codeHost(username)).slice(0, maxKeys);
    const result: SshKeyImportResult = { saved: 0, alreadySaved: 0, failed: 0 };
    await recordedTransaction(ctx.db, request, ctx.now, async (tx) => {
      const { rows } = await tx.query<{ title: string; fingerprint: string | null }>(
        'SELECT "title", "fingerprint" FROM "user__has__public_key" WHERE "user" = $1 FOR UPDATE',
        [actor.userId],
      );
      const held = new Set(rows.map((row) => row.fingerprint));
      const fresh: { normalized: string; fingerprint: string }[] = [];
      for (const key of keys) {
        let parsed;
        try {
          parsed = parsePublicKey(key);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          result.failed += 1;
          continue;
        }
        if (held.has(parsed.fingerprint)) {
          result.alreadySaved += 1;
          continue;
        }
        held.add(parsed.fingerprint);
        fresh.push(parsed);
      }
      const titles = importedKeyTitles(
        fresh.length,
        rows.map((row) => row.title),
      );
      for (const [index, key] of fresh.entries()) {
        const title = titles[index];
        if (title === undefined) throw new Error('a title per imported key');
        await tx.query(
          `INSERT INTO "user__has__public_key" ("user", "title", "public_key", "fingerprint")
           VALUES ($1, $2, $3, $4)`,
          [actor.userId, title, key.normalized, key.fingerprint],
        );
        result.saved += 1;
      }
    });
    return result;
  });
};
