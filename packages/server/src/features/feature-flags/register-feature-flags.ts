import { randomUUID } from 'node:crypto';
import {
  type FeatureFlagKey,
  type FeatureFlagValues,
  featureFlagKeys,
  featureFlags,
  isFeatureFlagKey,
} from '@flotilla/shared/feature-flags/flags';
import { OpenFeature } from '@openfeature/server-sdk';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { badRequest, notFound } from '../../infra/errors/api-error.js';
import { maxRowId, parseBody } from '../../infra/http/validate.js';
import { requirePlatformAdmin } from '../platform-admin/register-platform-admin.js';
import { databaseFlagProvider } from './database-flag-provider.js';
import { deleteSetting, type FlagSubject, listFlags, upsertSetting } from './flag-settings.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

// The server's one way to read a flag (features that switch on a flag take this).
export type FlagReader = { isEnabled(key: FeatureFlagKey, subject: FlagSubject): Promise<boolean> };

const valuesQuery = z.object({
  organization: z.coerce.number().int().min(1).max(maxRowId).optional(),
});
const flagParams = z.object({ flag: z.string().max(64) });
const idParams = z.object({ id: z.coerce.number().int().min(1).max(maxRowId) });
const settingBody = z.discriminatedUnion(
  'scope',
  [
    z.object({ scope: z.literal('global'), enabled: z.boolean() }),
    z.object({
      scope: z.literal('organization'),
      organization: z.string().trim().min(1, 'Organization handle is required').max(255),
      enabled: z.boolean(),
    }),
    z.object({
      scope: z.literal('user'),
      username: z.string().trim().min(1, 'Username is required').max(255),
      enabled: z.boolean(),
    }),
  ],
  { error: 'Scope must be global, organization or user' },
);

// Feature flags: stored in PostgreSQL, set by platform administrators, read through OpenFeature
// (one domain per app, so several apps in one process keep their own database).
export const registerFeatureFlags = (app: FastifyInstance, ctx: AppContext): FlagReader => {
  const domain = `flotilla-${randomUUID()}`;
  OpenFeature.setProvider(domain, databaseFlagProvider(ctx.db));
  const client = OpenFeature.getClient(domain);
  const reader: FlagReader = {
    isEnabled: (key, subject) =>
      client.getBooleanValue(key, featureFlags[key].defaultValue, {
        ...(subject.userId !== null ? { targetingKey: String(subject.userId) } : {}),
        ...(subject.organizationId !== null ? { organizationId: subject.organizationId } : {}),
      }),
  };

  // Every flag's value for the caller (guests: the global values), for the console's provider.
  app.get('/feature-flags/v1', { config: { access: 'public' } }, async (request) => {
    const { organization } = parseBody(valuesQuery, request.query);
    const actor = request.actor;
    const userId = actor.kind === 'user' && !actor.twoFactorPending ? actor.userId : null;
    const subject = { userId, organizationId: userId === null ? null : (organization ?? null) };
    const entries = await Promise.all(
      featureFlagKeys.map(async (key) => [key, await reader.isEnabled(key, subject)] as const),
    );
    const values: FeatureFlagValues = { apps: featureFlags.apps.defaultValue };
    for (const [key, value] of entries) values[key] = value;
    return values;
  });

  app.get('/admin/v1/feature-flags', { config: { access: 'user' } }, async (request) => {
    requirePlatformAdmin(request.actor);
    return { flags: await listFlags(ctx.db) };
  });

  app.post(
    '/admin/v1/feature-flags/:flag/settings',
    { config: { access: 'user' } },
    async (request) => {
      requirePlatformAdmin(request.actor);
      const { flag } = parseBody(flagParams, request.params);
      if (!isFeatureFlagKey(flag)) throw notFound(`No feature flag ${flag}`);
      const body = parseBody(settingBody, request.body);
      const target = await targetOf(ctx, body);
      const id = await recordedTransaction(ctx.db, request, ctx.now, (tx) =>
        upsertSetting(tx, flag, target, body.enabled, ctx.now()),
      );
      return { id };
    },
  );

  app.delete(
    '/admin/v1/feature-flags/settings/:id',
    { config: { access: 'user' } },
    async (request, reply) => {
      requirePlatformAdmin(request.actor);
      const { id } = parseBody(idParams, request.params);
      await recordedTransaction(
        ctx.db,
        request,
        ctx.now,
        async (tx) => {
          if (!(await deleteSetting(tx, id))) throw notFound('No such flag setting');
        },
        { status: 204 },
      );
      return reply.status(204).send();
    },
  );

  return reader;
};

type SettingBody = z.output<typeof settingBody>;

// The organization or user a setting is for (both null: everyone).
const targetOf = async (
  ctx: AppContext,
  body: SettingBody,
): Promise<{ organization: number | null; user: number | null }> => {
  if (body.scope === 'global') return { organization: null, user: null };
  const [sql, name] =
    body.scope === 'organization'
      ? [`SELECT "id" FROM "organization" WHERE lower("handle") = lower($1)`, body.organization]
      : [`SELECT "id" FROM "user" WHERE lower("username") = lower($1)`, body.username];
  const { rows } = await ctx.db.query<{ id: number }>(sql, [name]);
  const id = rows[0]?.id;
  if (id === undefined) {
    throw badRequest(body.scope === 'organization' ? `No organization ${name}` : `No user ${name}`);
  }
  return body.scope === 'organization'
    ? { organization: id, user: null }
    : { organization: null, user: id };
};
