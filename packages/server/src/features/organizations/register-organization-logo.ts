import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { forbidden, notFound } from '../../infra/errors/api-error.js';
import { maxRowId, parseBody } from '../../infra/http/validate.js';
import { resourceOf } from '../../infra/odata/compile-context.js';
import { createPermissionFilter } from '../../infra/odata/permissions.js';
import { createSqlParams } from '../../infra/odata/sql-params.js';
import { logoTypeOf } from './logo-image.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

const idParams = z.object({ id: z.coerce.number().int().min(1).max(maxRowId) });
const logoParams = idParams.extend({ sha256: z.string().regex(/^[0-9a-f]{64}$/) });

// Image bodies arrive as bytes; what they are is decided from their content (logo-image.ts).
const imageTypes = ['image/png', 'image/jpeg', 'image/jpg', 'application/octet-stream'];

// Whether the actor may update the organization (the /v7 rules: its administrators, platform
// administrators).
const assertMayUpdate = async (ctx: AppContext, actor: Actor, id: number): Promise<void> => {
  const params = createSqlParams(actor);
  const idParam = params.add(id);
  const permitted = createPermissionFilter(params)(
    resourceOf(ctx.model, 'organization'),
    'update',
    '"o"',
  );
  if (permitted === null) throw forbidden();
  const { rows } = await ctx.db.query(
    `SELECT 1 FROM "organization" "o" WHERE "o"."id" = ${idParam}::integer AND ${permitted}`,
    params.values(),
  );
  if (rows.length === 0) throw forbidden();
};

// Organization logos: PUT the image's bytes, DELETE to remove it. The
// organization's logo_image then names GET /org/v1/organization/:id/logo/:sha256, which serves
// it to anyone holding that address (an <img> cannot send the session's bearer token; the hash
// is known only to those who may read the organization) and may be cached forever.
export const registerOrganizationLogo = (app: FastifyInstance, ctx: AppContext): void => {
  void app.register((scope, _options, done) => {
    scope.addContentTypeParser(imageTypes, { parseAs: 'buffer' }, (_request, body, parsed) => {
      parsed(null, body);
    });
    scope.put('/org/v1/organization/:id/logo', { config: { access: 'user' } }, async (request) => {
      const { id } = parseBody(idParams, request.params);
      await assertMayUpdate(ctx, request.actor, id);
      const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const contentType = logoTypeOf(bytes);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const logo = {
        filename: contentType === 'image/png' ? 'logo.png' : 'logo.jpg',
        content_type: contentType,
        size: bytes.length,
        href: `/org/v1/organization/${id}/logo/${sha256}`,
      };
      await recordedTransaction(
        ctx.db,
        request,
        ctx.now,
        async (tx) => {
          await tx.query(
            `INSERT INTO "organization_logo" ("organization", "content_type", "content", "sha256")
           VALUES ($1, $2, $3, $4)
           ON CONFLICT ("organization") DO UPDATE SET "content_type" = $2, "content" = $3,
             "sha256" = $4, "updated_at" = now()`,
            [id, contentType, bytes, sha256],
          );
          await tx.query('UPDATE "organization" SET "logo_image" = $2::jsonb WHERE "id" = $1', [
            id,
            JSON.stringify(logo),
          ]);
        },
        { organizationId: id },
      );
      return { logo_image: logo };
    });
    done();
  });
  app.delete(
    '/org/v1/organization/:id/logo',
    { config: { access: 'user' } },
    async (request, reply) => {
      const { id } = parseBody(idParams, request.params);
      await assertMayUpdate(ctx, request.actor, id);
      await recordedTransaction(
        ctx.db,
        request,
        ctx.now,
        async (tx) => {
          await tx.query('DELETE FROM "organization_logo" WHERE "organization" = $1', [id]);
          await tx.query('UPDATE "organization" SET "logo_image" = NULL WHERE "id" = $1', [id]);
        },
        { organizationId: id },
      );
      return reply.status(200).send('');
    },
  );
  app.get(
    '/org/v1/organization/:id/logo/:sha256',
    { config: { access: 'public' } },
    async (request, reply) => {
      const { id, sha256 } = parseBody(logoParams, request.params);
      const { rows } = await ctx.db.query<{ content_type: string; content: Buffer }>(
        'SELECT "content_type", "content" FROM "organization_logo" WHERE "organization" = $1 AND "sha256" = $2',
        [id, sha256],
      );
      const logo = rows[0];
      if (!logo) throw notFound('No such logo');
      return reply
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .type(logo.content_type)
        .send(logo.content);
    },
  );
};
