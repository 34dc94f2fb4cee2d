import { invitationMessageMaxLength } from '@flotilla/shared/constants/limits';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest, conflict } from '../../infra/errors/api-error.js';
import type { HookRegistry, WriteContext } from '../../infra/odata/hooks.js';
import type { RateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import {
  applicationInvitations,
  type InvitationTable,
  organizationInvitations,
} from './invitation-kinds.js';
import { type InvitationMailDeps, queueInvitationMail } from './invitation-mail.js';
import { inviteeRowId, resolveInvitee, userIsInvitee } from './invitee.js';

const roleIdByName = async (tx: Queryable, table: string, name: string): Promise<number> => {
  const { rows } = await tx.query<{ id: number }>(`SELECT "id" FROM "${table}" WHERE "name" = $1`, [
    name,
  ]);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error(`role ${name} missing from ${table}`);
  return id;
};

// Whether the invitee already has what the invitation would give: membership of the
// organization, or any role on the fleet (directly, through a team or as organization admin).
const alreadyIn = async (
  tx: Queryable,
  table: InvitationTable,
  targetId: number,
  identifier: string,
): Promise<boolean> => {
  const sql =
    table.kind === 'organization'
      ? `SELECT 1 FROM "organization_membership" m JOIN "user" u ON u."id" = m."user"
          WHERE m."is_member_of__organization" = $1 AND ${userIsInvitee('u', '$2')}`
      : `SELECT 1 FROM "fleet_access" fa JOIN "user" u ON u."id" = fa."user"
          WHERE fa."application" = $1 AND ${userIsInvitee('u', '$2')}`;
  const { rows } = await tx.query(sql, [targetId, identifier]);
  return rows.length > 0;
};

export type InvitationHookDeps = InvitationMailDeps & {
  limiter: RateLimiter;
  // FLOTILLA_INVITATION_RATE_LIMIT: invitations one user may send per hour.
  invitationsPerHour: number;
};

// The inviter's message is a short note of theirs (the mail quotes it as such).
const checkMessage = (body: Record<string, unknown>): void => {
  const message = body.message;
  if (typeof message === 'string' && message.length > invitationMessageMaxLength) {
    throw badRequest(`'message' must be at most ${invitationMessageMaxLength} characters`);
  }
};

// Whose invitations count together against the hourly limit.
const inviterKey = (ctx: WriteContext): string => {
  const actor = ctx.actor;
  switch (actor.kind) {
    case 'user':
      return `user:${actor.userId}`;
    case 'anonymous':
      return 'anonymous';
    default:
      return `actor:${actor.actorId}`;
  }
};

// Recipients of invitations being created in this transaction, by invitee row id (prepareCreate
// learns them, afterCreate mails them).
type Pending = Map<number, string>;

const registerFor = (hooks: HookRegistry, table: InvitationTable, deps: InvitationHookDeps) => {
  const recipients = new WeakMap<WriteContext, Pending>();
  hooks.add(table.resource, {
    // balena-sdk posts the invitee as an e-mail or a username, and leaves the role out when it
    // was given no roleName.
    // An invitee given as a row id is refused: it would let an inviter reach (and, through the
    // invitation, read) an address someone else typed.
    async prepareCreate(ctx, body) {
      checkMessage(body);
      const invitee = await resolveInvitee(ctx.tx, body.invitee);
      const id = await inviteeRowId(ctx.tx, invitee.identifier);
      body.invitee = id;
      const pending = recipients.get(ctx) ?? new Map<number, string>();
      pending.set(id, invitee.recipient);
      recipients.set(ctx, pending);
      if (body[table.roleColumn] === undefined) {
        body[table.roleColumn] = await roleIdByName(ctx.tx, table.roleColumn, table.defaultRole);
      }
    },
    async beforeCreate(ctx, values) {
      if (ctx.actor.kind === 'user') values.is_created_by__user = ctx.actor.userId;
      const targetId = Number(values[table.targetColumn]);
      const { rows } = await ctx.tx.query<{ email: string }>(
        'SELECT "email" FROM "invitee" WHERE "id" = $1',
        [values.invitee ?? null],
      );
      const identifier = rows[0]?.email;
      if (identifier === undefined) throw badRequest('Unknown invitee');
      if (await alreadyIn(ctx.tx, table, targetId, identifier)) {
        throw conflict(`${identifier} is already a member of this ${table.noun}`);
      }
      const invited = await ctx.tx.query(
        `SELECT 1 FROM "${table.resource}" WHERE "invitee" = $1 AND "${table.targetColumn}" = $2`,
        [values.invitee ?? null, targetId],
      );
      if (invited.rows.length > 0) {
        throw conflict(`${identifier} has already been invited to this ${table.noun}`);
      }
      if (table.kind === 'application') {
        const role = await ctx.tx.query<{ name: string }>(
          'SELECT "name" FROM "application_membership_role" WHERE "id" = $1',
          [values[table.roleColumn] ?? null],
        );
        if (role.rows[0]?.name === undefined) throw badRequest('Unknown fleet role');
      }
      // Each invitation mails an address the inviter typed: counted per inviter, once it is
      // known to be one that will be sent (a refused duplicate sends nothing).
      await deps.limiter.take([
        {
          key: `invitation:${inviterKey(ctx)}`,
          limit: deps.invitationsPerHour,
          windowMs: 3_600_000,
        },
      ]);
    },
    async prepareUpdate(_ctx, body) {
      checkMessage(body);
    },
    async afterCreate(ctx, id, values) {
      let recipient = recipients.get(ctx)?.get(Number(values.invitee));
      if (recipient === undefined) {
        // Posted with an invitee row id: mail the address it names, or the account it names.
        const { rows } = await ctx.tx.query<{ recipient: string | null }>(
          `SELECT coalesce(
             (SELECT u."email" FROM "user" u WHERE ${userIsInvitee('u', 'e."email"')} LIMIT 1),
             CASE WHEN e."email" LIKE '%@%' THEN e."email" END) AS "recipient"
             FROM "invitee" e WHERE e."id" = $1`,
          [values.invitee ?? null],
        );
        recipient = rows[0]?.recipient ?? undefined;
        if (recipient === undefined)
          throw badRequest('The invitee has no e-mail address to invite');
      }
      await queueInvitationMail(ctx.tx, table, id, recipient, ctx.now, deps);
    },
    // A revoked invitation's link says so rather than "not valid".
    async beforeDelete(ctx, ids) {
      await ctx.tx.query(
        `INSERT INTO "invitation_outcome" ("token_id", "outcome")
         SELECT "token_id", 'revoked' FROM "${table.resource}" WHERE "id" = ANY($1::integer[])
         ON CONFLICT ("token_id") DO NOTHING`,
        [ids],
      );
    },
  });
};

// Invitations to organizations and fleets: the invitee is
// trimmed, a new e-mail must be valid, not already a member and not already invited; the message
// is at most invitationMessageMaxLength characters; each inviter sends at most
// FLOTILLA_INVITATION_RATE_LIMIT an hour (429 with Retry-After beyond); each one is mailed with a
// signed link (invitation-signing.ts) in the transaction that creates it.
export const registerInvitationHooks = (hooks: HookRegistry, deps: InvitationHookDeps): void => {
  registerFor(hooks, organizationInvitations, deps);
  registerFor(hooks, applicationInvitations, deps);
};
