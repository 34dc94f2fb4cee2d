import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { parseBody } from '../../infra/http/validate.js';

const params = z.object({ username: z.string().min(1).max(255) });

// GET /auth/v1/public-keys/:username: the user's SSH public keys, one per line as in an
// authorized_keys file, for an SSH gateway (wire contract, open-balena's auth feature). Public keys
// are public: an unknown username answers like a user without keys (an empty body), so the answer
// tells nothing about which accounts exist.
export const registerPublicKeys = (app: FastifyInstance, ctx: AppContext): void => {
  app.get(
    '/auth/v1/public-keys/:username',
    { config: { access: 'public' } },
    async (request, reply) => {
      const { username } = parseBody(params, request.params);
      const { rows } = await ctx.db.query<{ public_key: string }>(
        `SELECT k."public_key" FROM "user__has__public_key" k
           JOIN "user" u ON u."id" = k."user"
          WHERE lower(u."username") = lower($1)
          ORDER BY k."id"`,
        [username],
      );
      const body = rows.map((row) => `${row.public_key}\n`).join('');
      return reply.type('text/plain; charset=utf-8').send(body);
    },
  );
};
