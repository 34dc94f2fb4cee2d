import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { ApiError } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { buildDeviceTypeManifest, downloadSizeOf } from './device-type-manifest.js';
import { findDeviceType, listDeviceTypes } from './device-type-rows.js';

const slugParams = z.object({ slug: z.string().min(1).max(255) });
const downloadSizeParams = slugParams.extend({ version: z.string().min(1).max(255) });

// GET /device-types/v1[/:slug[/images/:version/download-size]]: the legacy device-type manifest
// API behind the SDK's config.getDeviceTypes and os.getDownloadSize. The catalogue is public.
export const registerDeviceTypes = (app: FastifyInstance, ctx: AppContext): void => {
  const find = async (params: unknown) => {
    const { slug } = parseBody(slugParams, params);
    const row = await findDeviceType(ctx.db, slug);
    if (!row) throw new ApiError('not_found', `Invalid device type: ${slug}`);
    return row;
  };

  app.get('/device-types/v1', { config: { access: 'public' } }, async () =>
    (await listDeviceTypes(ctx.db)).map(buildDeviceTypeManifest),
  );

  app.get('/device-types/v1/:slug', { config: { access: 'public' } }, async (request) =>
    buildDeviceTypeManifest(await find(request.params)),
  );

  app.get(
    '/device-types/v1/:slug/images/:version/download-size',
    { config: { access: 'public' } },
    async (request) => {
      parseBody(downloadSizeParams, request.params);
      return { size: downloadSizeOf(await find(request.params)) };
    },
  );
};
