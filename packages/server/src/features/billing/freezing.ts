import { freezeAfterDays } from '@flotilla/shared/credits/freezing';
import type { Queryable, SqlValue } from '../../infra/db/database.js';
import { badRequest } from '../../infra/errors/api-error.js';
import type { HookRegistry } from '../../infra/odata/hooks.js';

// Freezes an organization past due for freezeAfterDays (its devices with it), and unfreezes it
// once nothing is past due that long. Devices frozen for the organization are marked so that
// unfreezing it leaves devices frozen for other reasons alone.
export const applyFreezing = async (
  db: Queryable,
  organization: number,
  now: Date,
): Promise<boolean> => {
  const { rows } = await db.query<{ is_frozen: boolean }>(
    `UPDATE "organization" SET "is_frozen" = coalesce(
       "has_past_due_invoice_since__date" <= $2::timestamptz - make_interval(days => $3), false)
     WHERE "id" = $1 RETURNING "is_frozen"`,
    [organization, now, freezeAfterDays],
  );
  const frozen = rows[0]?.is_frozen ?? false;
  if (frozen) {
    await db.query(
      `UPDATE "device" d SET "is_frozen" = true, "is_frozen_with__organization" = true
       FROM "application" a
       WHERE a."id" = d."belongs_to__application" AND a."organization" = $1 AND NOT d."is_frozen"`,
      [organization],
    );
  } else {
    await db.query(
      `UPDATE "device" d SET "is_frozen" = false, "is_frozen_with__organization" = false
       FROM "application" a
       WHERE a."id" = d."belongs_to__application" AND a."organization" = $1
         AND d."is_frozen_with__organization"`,
      [organization],
    );
  }
  return frozen;
};

const frozenMessage =
  'This organization is frozen: its devices get no new releases until its past-due invoices are paid';

const refuseIfFrozen = async (db: Queryable, sql: string, params: SqlValue[]): Promise<void> => {
  const { rows } = await db.query<{ is_frozen: boolean }>(sql, params);
  if (rows.some((row) => row.is_frozen)) throw badRequest(frozenMessage);
};

const byFleet = `SELECT o."is_frozen" FROM "application" a
  JOIN "organization" o ON o."id" = a."organization" WHERE a."id" = $1`;

// A frozen organization's fleets take no new releases and their devices no new targets (with
// billing on).
export const registerFreezingHooks = (
  hooks: HookRegistry,
  options: { billingEnabled: boolean },
): void => {
  if (!options.billingEnabled) return;
  hooks.add('release', {
    beforeCreate: async (ctx, values) =>
      refuseIfFrozen(ctx.tx, byFleet, [values.belongs_to__application ?? null]),
  });
  hooks.add('application', {
    beforeUpdate: async (ctx, ids, values) => {
      if (values.should_be_running__release === undefined || ids.length === 0) return;
      await refuseIfFrozen(
        ctx.tx,
        `SELECT o."is_frozen" FROM "application" a JOIN "organization" o ON o."id" = a."organization"
         WHERE a."id" = ANY($1::integer[])`,
        [[...ids]],
      );
    },
  });
  hooks.add('device', {
    beforeUpdate: async (ctx, ids, values) => {
      if (values.should_be_running__release === undefined || ids.length === 0) return;
      await refuseIfFrozen(
        ctx.tx,
        `SELECT o."is_frozen" FROM "device" d
         JOIN "application" a ON a."id" = d."belongs_to__application"
         JOIN "organization" o ON o."id" = a."organization" WHERE d."id" = ANY($1::integer[])`,
        [[...ids]],
      );
    },
  });
};
