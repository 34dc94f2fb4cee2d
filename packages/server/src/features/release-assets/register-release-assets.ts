import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { ApiError, badRequest, notFound } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { registerPeriodicTask } from '../../infra/scheduling/periodic-task.js';
import { publicUrlOf } from '../mail/register-mail.js';
import { sweepAssetFiles, sweepIntervalMs } from './asset-sweep.js';
import { beginUpload, commitUpload, maxChunkBytes, storePart } from './chunked-upload.js';
import { assetPath, releaseAssetMaxBytes, UploadedAsset } from './asset-files.js';

const multipartOverhead = 64 * 1024;
const assetUrl = /^\/v7\/release_asset(\(\d+\))?(\?|$)/;
const partParams = z.object({
  uuid: z.string().regex(/^[0-9a-f]{32}$/),
  part: z.coerce.number().int().min(1).max(1000),
});
const downloadParams = z.object({ uuid: z.string().regex(/^[0-9a-f]{32}$/), filename: z.string() });

export const assetTooLarge = `Release assets are limited to ${releaseAssetMaxBytes} bytes (5 MiB)`;

// The request's bytes, refused once they pass the limit (without reading the rest).
const readLimited = async (payload: AsyncIterable<unknown>, limit: number): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of payload) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    total += bytes.length;
    if (total > limit) throw new ApiError('payload_too_large', assetTooLarge);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
};

type FormValue = Parameters<Parameters<FormData['forEach']>[0]>[0];

// A multipart form as a /v7 body: text fields as given (the release id as a number: balena-sdk
// sends every field as text), the one file `asset` as an UploadedAsset.
const parseForm = async (
  contentType: string,
  bytes: Buffer,
  origin: string,
): Promise<Record<string, unknown>> => {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), {
      headers: { 'content-type': contentType },
    }).formData();
  } catch {
    throw badRequest('The request body is not a valid multipart/form-data form');
  }
  const entries: [string, FormValue][] = [];
  form.forEach((value, name) => entries.push([name, value]));
  const body: Record<string, unknown> = {};
  for (const [name, value] of entries) {
    if (name in body) throw badRequest(`'${name}' is given twice`);
    if (typeof value === 'string') {
      body[name] = name === 'release' && /^\d{1,10}$/.test(value) ? Number(value) : value;
    } else if (name === 'asset') {
      const content = Buffer.from(await value.arrayBuffer());
      if (content.length > releaseAssetMaxBytes) {
        throw new ApiError('payload_too_large', assetTooLarge);
      }
      const type = value.type || 'application/octet-stream';
      body[name] = new UploadedAsset(value.name || 'asset', type, content, origin);
    } else {
      throw badRequest(`Only 'asset' may be a file, got a file for '${name}'`);
    }
  }
  return body;
};

// Release assets: balena-sdk's release.asset.upload POSTs (or PATCHes) files up to
// 5 MiB as multipart/form-data to /v7/release_asset; the /v7 engine then writes the row
// (release-asset-hooks.ts stores the file). GET /release-asset/v1/:uuid/:filename serves it.
export const registerReleaseAssets = (app: FastifyInstance, ctx: AppContext): void => {
  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    if (!assetUrl.test(request.url)) {
      done(new ApiError('bad_request', 'multipart/form-data is accepted only by release_asset'));
      return;
    }
    const contentType = request.headers['content-type'] ?? '';
    readLimited(payload, releaseAssetMaxBytes + multipartOverhead)
      .then((bytes) => parseForm(contentType, bytes, publicUrlOf(app, ctx.config.publicUrl)))
      .then(
        (body) => done(null, body),
        (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
      );
  });

  const origin = () => publicUrlOf(app, ctx.config.publicUrl);
  // Files of another database's assets are not orphans (the start said so in the log).
  if (ctx.installation.kind !== 'mismatch') {
    registerPeriodicTask(app, {
      run: async () => {
        await sweepAssetFiles(ctx.db, ctx.config.dataDir, ctx.now());
      },
      intervalMs: sweepIntervalMs,
      firstRunMs: 0,
      failure: 'release asset sweep failed',
    });
  }
  ctx.hooks.add('release_asset', {
    actions: {
      beginUpload: (_write, id, body) => beginUpload(ctx.config.dataDir, origin(), id, body),
      commitUpload: (write, id, body) =>
        commitUpload(ctx.config.dataDir, origin(), write, id, body),
    },
  });
  // A part's bytes arrive as they are (any or no content type), at most one chunk.
  void app.register((scope, _options, done) => {
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: maxChunkBytes },
      (_r, body, parsed) => {
        parsed(null, body);
      },
    );
    scope.put(
      '/release-asset/v1/uploads/:uuid/:part',
      { config: { access: 'public' } },
      async (request, reply) => {
        const { uuid, part } = parseBody(partParams, request.params);
        const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const etag = await storePart(ctx.config.dataDir, uuid, part, bytes);
        return reply.header('ETag', `"${etag}"`).status(200).send('');
      },
    );
    done();
  });

  // The href's uuid is known only to who may read the release (like a pre-signed URL, which
  // balena-sdk's download fetches without its token); a removed row's file is never served.
  app.get(
    '/release-asset/v1/:uuid/:filename',
    { config: { access: 'public' } },
    async (request, reply) => {
      const { uuid } = parseBody(downloadParams, request.params);
      const { rows } = await ctx.db.query<{ content_type: string | null; filename: string | null }>(
        `SELECT "asset" ->> 'content_type' AS "content_type", "asset" ->> 'filename' AS "filename"
           FROM "release_asset" WHERE "asset" ->> 'uuid' = $1`,
        [uuid],
      );
      const row = rows[0];
      if (!row) throw notFound('No such release asset');
      const file = assetPath(ctx.config.dataDir, uuid);
      const size = await stat(file).then(
        (info) => info.size,
        () => undefined,
      );
      if (size === undefined) throw notFound('The release asset file is missing');
      const filename = (row.filename ?? 'asset').replace(/[^\w.-]/g, '_');
      return reply
        .header('Content-Length', size)
        .header('Content-Disposition', `attachment; filename="${filename}"`)
        .header('Cache-Control', 'private, no-store')
        .type('application/octet-stream')
        .send(createReadStream(file));
    },
  );
};
