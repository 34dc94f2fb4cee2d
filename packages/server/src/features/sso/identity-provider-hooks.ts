import { identityProviderMessages } from '@flotilla/shared/sso/identity-provider-rules';
import { platformPermissionOf } from '@flotilla/shared/permissions/roles';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest, conflict, forbidden } from '../../infra/errors/api-error.js';
import type { HookRegistry, WriteContext } from '../../infra/odata/hooks.js';
import { checkProviderFields } from './identity-provider-fields.js';
import { assertSamlAccessAllowed } from './saml-access-gate.js';

const isPlatformAdmin = (ctx: WriteContext): boolean =>
  ctx.actor.kind === 'user' &&
  ctx.actor.platformPermissions.includes(platformPermissionOf.balena_admin);

const administers = async (ctx: WriteContext, organizationId: number): Promise<boolean> => {
  if (isPlatformAdmin(ctx)) return true;
  if (ctx.actor.kind !== 'user') return false;
  const { rows } = await ctx.tx.query(
    `SELECT 1 FROM "organization_access" WHERE "user" = $1 AND "organization" = $2 AND "role" = 'administrator'`,
    [ctx.actor.userId, organizationId],
  );
  return rows.length > 0;
};

// True when the caller administers an organization the provider already serves.
const administersProvider = async (ctx: WriteContext, providerId: number): Promise<boolean> => {
  if (isPlatformAdmin(ctx)) return true;
  if (ctx.actor.kind !== 'user') return false;
  const { rows } = await ctx.tx.query(
    `SELECT 1 FROM "identity_provider_membership" m
       JOIN "organization_access" oa ON oa."organization" = m."organization"
      WHERE m."is_authorized_by__identity_provider" = $1 AND oa."user" = $2 AND oa."role" = 'administrator'
      LIMIT 1`,
    [providerId, ctx.actor.userId],
  );
  return rows.length > 0;
};

const assertIdentifierFree = async (
  tx: Queryable,
  identifier: unknown,
  except: readonly number[] = [],
): Promise<void> => {
  if (typeof identifier !== 'string') return;
  const { rows } = await tx.query(
    'SELECT 1 FROM "identity_provider" WHERE "sso_identifier" = $1 AND NOT ("id" = ANY($2::integer[]))',
    [identifier, [...except]],
  );
  if (rows.length > 0) throw conflict(identityProviderMessages.ssoIdentifierTaken);
};

const organizationIdOf = (value: unknown): number => {
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0 || id > 2_147_483_647) {
    throw badRequest("'organization_id' must be the id of an organization you administer");
  }
  return id;
};

const registerProviderHooks = (hooks: HookRegistry, billingEnabled: boolean): void => {
  // The organization a new provider serves first, from the write-only `organization_id` of the
  // POST body (balena-sdk's shape), attached within the same write.
  const firstOrganization = new WeakMap<WriteContext, number>();
  hooks.add('identity_provider', {
    async prepareCreate(ctx, body) {
      const organizationId = organizationIdOf(body.organization_id ?? body.organization);
      delete body.organization_id;
      delete body.organization;
      if (!(await administers(ctx, organizationId))) {
        throw forbidden(identityProviderMessages.organizationNotAdministered);
      }
      await assertSamlAccessAllowed(ctx, organizationId, billingEnabled);
      firstOrganization.set(ctx, organizationId);
    },
    async beforeCreate(ctx, values) {
      checkProviderFields(values, 'create');
      await assertIdentifierFree(ctx.tx, values.sso_identifier);
    },
    async afterCreate(ctx, id) {
      const organizationId = firstOrganization.get(ctx);
      if (organizationId === undefined) throw badRequest("'organization_id' is required");
      await ctx.tx.query(
        `INSERT INTO "identity_provider_membership" ("organization", "is_authorized_by__identity_provider")
         VALUES ($1, $2)`,
        [organizationId, id],
      );
    },
    async beforeUpdate(ctx, ids, values) {
      checkProviderFields(values, 'update');
      if ('sso_identifier' in values && ids.length > 1) {
        throw badRequest('Identity providers are renamed one at a time: identifiers are unique');
      }
      await assertIdentifierFree(ctx.tx, values.sso_identifier, ids);
    },
    async beforeDelete(ctx, ids) {
      const { rows } = await ctx.tx.query(
        'SELECT 1 FROM "saml_account" WHERE "was_generated_by__identity_provider" = ANY($1::integer[]) LIMIT 1',
        [[...ids]],
      );
      if (rows.length > 0) throw conflict(identityProviderMessages.accountsExist);
    },
  });
};

const teamBelongs = async (tx: Queryable, team: unknown, membershipOrganization: number) => {
  if (team === null || team === undefined) return;
  const { rows } = await tx.query(
    'SELECT 1 FROM "team" WHERE "id" = $1 AND "belongs_to__organization" = $2',
    [team, membershipOrganization],
  );
  if (rows.length === 0) throw badRequest(identityProviderMessages.teamOfOtherOrganization);
};

const registerMembershipHooks = (hooks: HookRegistry, billingEnabled: boolean): void => {
  hooks.add('identity_provider_membership', {
    // Attaching an organization takes both sides: the permission table asks that the caller
    // administers the organization attached, this that they already manage the provider.
    async beforeCreate(ctx, values) {
      const providerId = Number(values.is_authorized_by__identity_provider);
      const organizationId = Number(values.organization);
      if (!(await administersProvider(ctx, providerId))) {
        throw forbidden(identityProviderMessages.notAnAdministrator);
      }
      await assertSamlAccessAllowed(ctx, organizationId, billingEnabled);
      await teamBelongs(ctx.tx, values.grants_access_to__team, organizationId);
    },
    async beforeUpdate(ctx, ids, values) {
      if (!('grants_access_to__team' in values)) return;
      const { rows } = await ctx.tx.query<{ organization: number }>(
        'SELECT "organization" FROM "identity_provider_membership" WHERE "id" = ANY($1::integer[])',
        [[...ids]],
      );
      for (const row of rows)
        await teamBelongs(ctx.tx, values.grants_access_to__team, row.organization);
    },
    async beforeDelete(ctx, ids) {
      // A provider left without an organization would serve no one and be managed by no one.
      const { rows } = await ctx.tx.query(
        `SELECT 1 FROM "identity_provider_membership" m
          WHERE m."id" = ANY($1::integer[])
            AND NOT EXISTS (SELECT 1 FROM "identity_provider_membership" o
                             WHERE o."is_authorized_by__identity_provider" = m."is_authorized_by__identity_provider"
                               AND NOT (o."id" = ANY($1::integer[])))
          LIMIT 1`,
        [[...ids]],
      );
      if (rows.length > 0) throw conflict(identityProviderMessages.lastOrganization);
    },
  });
};

// `billingEnabled`: whether the SAML plan gate applies (FLOTILLA_BILLING).
export const registerIdentityProviderHooks = (
  hooks: HookRegistry,
  options: { billingEnabled: boolean },
): void => {
  registerProviderHooks(hooks, options.billingEnabled);
  registerMembershipHooks(hooks, options.billingEnabled);
};
