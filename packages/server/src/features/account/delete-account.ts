import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { requireSessionMay } from '../../infra/auth/session-rules.js';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest, unauthorized } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { createRateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { createLoginThrottle } from '../auth/login-rate-limit.js';
import { checkCurrentPassword, passwordHashOf } from '../auth/current-password.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

const deleteBody = z.object({
  password: z.string({ error: 'password is required' }).min(1, 'password is required').max(4096),
});

// The organizations the user administers alone (deleted with the account).
export const soleAdministratorOrganizations = async (
  db: Queryable,
  userId: number,
): Promise<{ id: number; name: string }[]> => {
  const { rows } = await db.query<{ id: number; name: string }>(
    `SELECT o."id", o."name" FROM "organization" o
      WHERE EXISTS (SELECT 1 FROM "organization_membership" m
                      JOIN "organization_membership_role" r ON r."id" = m."organization_membership_role"
                     WHERE m."is_member_of__organization" = o."id" AND r."name" = 'administrator'
                       AND m."user" = $1)
        AND NOT EXISTS (SELECT 1 FROM "organization_membership" m
                          JOIN "organization_membership_role" r ON r."id" = m."organization_membership_role"
                         WHERE m."is_member_of__organization" = o."id" AND r."name" = 'administrator'
                           AND m."user" <> $1)
      ORDER BY o."name"`,
    [userId],
  );
  return rows;
};

// POST /user/v1/delete-account {password}: the password is checked (a
// login attempt, counted as one), then in one transaction the organizations the user administers
// alone are deleted with their fleets (and everything in them), and the user with their SSH keys,
// API keys and memberships. Every session token and key of the user stops working at once (the
// user's row is gone; see the actor cache's invalidation). Billing steps come with billing.
// Answers the names of the deleted organizations.
export const registerAccountDeletion = (app: FastifyInstance, ctx: AppContext): void => {
  const throttle = createLoginThrottle(createRateLimiter(ctx.db, ctx.now), ctx.config);

  // What deleting would take with it, for the console's confirmation.
  app.get('/user/v1/delete-account', { config: { access: 'user' } }, async (request) => {
    const actor = request.actor;
    if (actor.kind !== 'user') throw unauthorized();
    return { organizations: await soleAdministratorOrganizations(ctx.db, actor.userId) };
  });

  app.post('/user/v1/delete-account', { config: { access: 'user' } }, async (request) => {
    const actor = request.actor;
    if (actor.kind !== 'user') throw unauthorized();
    requireSessionMay(actor, 'delete-account');
    const { userId } = actor;
    const { password } = parseBody(deleteBody, request.body);
    const hash = await passwordHashOf(ctx.db, userId);
    if (hash === null) throw badRequest('Set a password first: deleting the account asks for it');
    await checkCurrentPassword(throttle, { userId, ip: request.ip, password, hash });
    const deleted = await recordedTransaction(ctx.db, request, ctx.now, async (tx) => {
      // Locks the user's memberships: an administrator added meanwhile keeps the organization.
      await tx.query('SELECT 1 FROM "user" WHERE "id" = $1 FOR UPDATE', [userId]);
      const organizations = await soleAdministratorOrganizations(tx, userId);
      const ids = organizations.map((organization) => organization.id);
      await tx.query('DELETE FROM "application" WHERE "organization" = ANY($1::integer[])', [ids]);
      await tx.query('DELETE FROM "organization" WHERE "id" = ANY($1::integer[])', [ids]);
      await tx.query('DELETE FROM "user" WHERE "id" = $1', [userId]);
      return organizations;
    });
    return { deletedOrganizations: deleted.map((organization) => organization.name) };
  });
};
