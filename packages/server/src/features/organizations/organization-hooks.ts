import type { HookRegistry, WriteContext } from '../../infra/odata/hooks.js';
import { badRequest } from '../../infra/errors/api-error.js';
import {
  assertOrganizationNameFree,
  assertOrganizationsDeletable,
  organizationNameOf,
} from './organization-rules.js';

// balena derives a handle from the name: lower-case letters, digits and underscores.
export const handleFromName = (name: string): string =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 100);

const uniqueHandle = async (ctx: WriteContext, base: string): Promise<string> => {
  const { rows } = await ctx.tx.query<{ handle: string }>(
    `SELECT "handle" FROM "organization" WHERE "handle" = $1 OR "handle" LIKE $2`,
    [base, `${base.replaceAll('_', '\\_')}\\_%`],
  );
  const taken = new Set(rows.map((row) => row.handle));
  if (!taken.has(base)) return base;
  for (let suffix = 1; ; suffix++) {
    const candidate = `${base}_${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
};

export const registerOrganizationHooks = (hooks: HookRegistry): void => {
  hooks.add('organization', {
    async beforeCreate(ctx, values) {
      const name = organizationNameOf(values.name);
      values.name = name;
      await assertOrganizationNameFree(ctx, name);
      if (typeof values.handle === 'string') {
        if (!/^[a-z0-9_]{1,100}$/.test(values.handle)) {
          throw badRequest("'handle' may only contain lower-case letters, digits and underscores");
        }
        return;
      }
      const base = handleFromName(name);
      if (base.length === 0) throw badRequest("'name' must contain a letter or a digit");
      values.handle = await uniqueHandle(ctx, base);
    },
    async beforeUpdate(ctx, ids, values) {
      if (!('name' in values)) return;
      const name = organizationNameOf(values.name);
      values.name = name;
      await assertOrganizationNameFree(ctx, name, ids);
      if (ids.length > 1) {
        throw badRequest('Organizations are renamed one at a time: their names must differ');
      }
    },
    async beforeDelete(ctx, ids) {
      await assertOrganizationsDeletable(ctx, ids);
    },
    // The user who creates an organization administers it.
    async afterCreate(ctx, id) {
      if (ctx.actor.kind !== 'user') return;
      await ctx.tx.query(
        `INSERT INTO "organization_membership" ("user", "is_member_of__organization", "organization_membership_role")
         SELECT $1, $2, r."id" FROM "organization_membership_role" r WHERE r."name" = 'administrator'`,
        [ctx.actor.userId, id],
      );
    },
  });
};
