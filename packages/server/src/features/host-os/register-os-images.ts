import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  configuredImageName,
  type OsImage,
  type OsImageDownload,
  osImageFilenameLimit,
} from '@flotilla/shared/host-os/os-image';
import type { AppContext } from '../../app-context.js';
import type { Queryable } from '../../infra/db/database.js';
import { ApiError, badRequest, notFound } from '../../infra/errors/api-error.js';
import { maxRowId, parseBody } from '../../infra/http/validate.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';
import { resolveWithDns } from '../builder/fetch-project.js';
import type { ResolveHost } from '../builder/pinned-request.js';
import { parseAllowedNetworks } from '../builder/url-address-policy.js';
import { configRequest, provisioningConfig } from '../device-config/register-download-config.js';
import { requirePlatformAdmin } from '../platform-admin/register-platform-admin.js';
import { buildDeviceTypeManifest } from '../device-types/device-type-manifest.js';
import { findDeviceType } from '../device-types/device-type-rows.js';
import {
  configuredImageStream,
  osImagePath,
  removeImageFile,
  storeImageStream,
} from './os-image-files.js';
import { fetchLinkedImage } from './os-image-link.js';
import * as store from './os-image-store.js';
import { imageForVersion } from './os-image-version.js';

const idParams = z.object({ id: z.coerce.number().int().positive().max(maxRowId) });
const filename = z
  .string()
  .trim()
  .min(1)
  .max(osImageFilenameLimit)
  .regex(/^[^/\\]+$/, 'Must be a file name, without folders');
const uploadQuery = z.object({ filename: filename.optional() });
const linkBody = z.object({
  url: z.string().trim().min(1).max(2000),
  filename: filename.optional(),
});
const offeredQuery = z.object({ deviceType: z.string().min(1).max(100) });
const downloadBody = configRequest.extend({
  release: z.coerce.number().int().positive().max(maxRowId),
});
const osDownloadQuery = z.object({
  deviceType: z.string().trim().min(1).max(100),
  version: z.string().trim().min(1).max(100),
  imageType: z.enum(['raw', 'flasher']).optional(),
  fileType: z.enum(['.img', '.zip', '.gz']).optional(),
});
const ticketParams = z.object({ ticket: z.string().regex(/^[A-Za-z0-9_-]{32}$/) });

// Images streamed at once by this process: each holds a file open and a connection busy.
const maxConcurrentDownloads = 4;

// Provisioning images: platform administrators upload or link an image per host OS release; a
// user who may add devices to a fleet downloads it with the fleet's config.json in its boot
// partition (POST /download-os-image answers a one-time URL the browser then follows).
export const registerOsImages = (
  app: FastifyInstance,
  ctx: AppContext,
  resolve: ResolveHost = resolveWithDns,
): void => {
  const dataDir = ctx.config.dataDir;
  const check = { allowed: parseAllowedNetworks(ctx.config.builderAllowedNetworks), resolve };
  let downloading = 0;
  // Checked before a ticket is spent, so a busy server does not use up the caller's link.
  const ensureSlot = () => {
    if (downloading >= maxConcurrentDownloads) {
      throw new ApiError(
        'service_unavailable',
        'Too many image downloads at once: try again in a minute',
        { retryAfterSeconds: 60 },
      );
    }
  };
  const holdSlot = (stream: Readable) => {
    downloading += 1;
    stream.once('close', () => {
      downloading -= 1;
    });
  };

  const releaseFor = async (id: number) => {
    const release = await store.imageRelease(ctx.db, id);
    if (release === null) throw notFound(`No OS or supervisor release ${id} in the catalogue`);
    return release;
  };
  // The image's row and its audit record commit together (the file is removed if they do not).
  const keep = async (
    request: FastifyRequest,
    id: number,
    source: Readable,
    name: string,
    url: string | null,
  ) => {
    const stored = await storeImageStream(dataDir, source);
    try {
      const replaced = await recordedTransaction(
        ctx.db,
        request,
        ctx.now,
        (tx: Queryable) => store.saveImage(tx, id, stored, name, url),
        { status: 201 },
      );
      if (replaced !== null) await removeImageFile(dataDir, replaced);
    } catch (error) {
      await removeImageFile(dataDir, stored.file);
      throw error;
    }
    const images = await store.listImages(ctx.db);
    return images.find((image) => image.release === id);
  };
  const created = (reply: FastifyReply, image: OsImage | undefined) =>
    reply.status(201).send(image);

  app.get('/admin/v1/host-os/images', { config: { access: 'user' } }, async (request) => {
    requirePlatformAdmin(request.actor);
    return store.listImages(ctx.db);
  });

  app.register(async (scoped) => {
    // The image streams to disk as it arrives, never whole in memory (os-image-files.ts limits it).
    scoped.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scoped.put(
      '/admin/v1/host-os/releases/:id/image',
      { config: { access: 'user' } },
      async (request, reply) => {
        requirePlatformAdmin(request.actor);
        const { id } = parseBody(idParams, request.params);
        const query = parseBody(uploadQuery, request.query);
        const release = await releaseFor(id);
        const name = query.filename ?? `${release.deviceType ?? 'os'}-${release.version}.img`;
        return created(reply, await keep(request, id, request.raw, name, null));
      },
    );
  });

  app.post(
    '/admin/v1/host-os/releases/:id/image-link',
    { config: { access: 'user' } },
    async (request, reply) => {
      requirePlatformAdmin(request.actor);
      const { id } = parseBody(idParams, request.params);
      const body = parseBody(linkBody, request.body);
      await releaseFor(id);
      const fromUrl = decodeURIComponent(
        new URL(body.url, 'http://x').pathname.split('/').pop() ?? '',
      );
      const name = body.filename ?? (fromUrl || 'os.img');
      const image = await fetchLinkedImage(body.url, check, (source) =>
        keep(request, id, source, name.slice(0, osImageFilenameLimit), body.url),
      );
      return created(reply, image);
    },
  );

  app.delete(
    '/admin/v1/host-os/releases/:id/image',
    { config: { access: 'user' } },
    async (request, reply) => {
      requirePlatformAdmin(request.actor);
      const { id } = parseBody(idParams, request.params);
      const file = await recordedTransaction(
        ctx.db,
        request,
        ctx.now,
        async (tx) => {
          const removed = await store.deleteImage(tx, id);
          if (removed === null) throw notFound(`Release ${id} has no provisioning image`);
          return removed;
        },
        { status: 204 },
      );
      await removeImageFile(dataDir, file);
      return reply.status(204).send();
    },
  );

  app.get('/v1/os-images', { config: { access: 'user' } }, async (request) => {
    const { deviceType } = parseBody(offeredQuery, request.query);
    return store.offeredImages(ctx.db, deviceType);
  });

  app.post('/download-os-image', { config: { access: 'user' } }, async (request) => {
    const { release, ...input } = parseBody(downloadBody, request.body);
    const image = await store.offeredImage(ctx.db, release);
    if (image === undefined) throw notFound(`Release ${release} has no provisioning image`);
    // The download's provisioning key and ticket commit with its audit record (a refused one
    // keeps no key).
    const { ticket, expiresAt, config } = await recordedTransaction(
      ctx.db,
      request,
      ctx.now,
      async (tx) => {
        const made = await provisioningConfig(
          ctx,
          request,
          { ...input, version: input.version ?? image.semver },
          tx,
        );
        if (made.deviceType !== image.device_type) {
          throw badRequest(
            `The image of release ${release} is for ${image.device_type}, not ${made.deviceType}`,
          );
        }
        return { ...(await store.createTicket(tx, release, made, ctx.now())), config: made };
      },
    );
    const answer: OsImageDownload = {
      url: `/os-image-download/${ticket}`,
      expiresAt: expiresAt.toISOString(),
      filename: configuredImageName(config.applicationName, image.device_type, image.semver),
    };
    return answer;
  });

  // The ticket is the credential: a browser download carries no Authorization header.
  app.get(
    '/os-image-download/:ticket',
    { config: { access: 'public' } },
    async (request, reply) => {
      const { ticket } = parseBody(ticketParams, request.params);
      ensureSlot();
      const taken = await store.takeTicket(ctx.db, ticket, ctx.now());
      if (taken === null) throw notFound('This download link has expired or was used already');
      const file = await store.imageFileOf(ctx.db, taken.release);
      const image = await store.offeredImage(ctx.db, taken.release);
      if (file === null || image === undefined) throw notFound('The image was removed');
      const { stream, size } = await configuredImageStream(dataDir, file, taken.config);
      holdSlot(stream);
      const config = z.object({ applicationName: z.string() }).safeParse(taken.config);
      const name = configuredImageName(
        config.success ? config.data.applicationName : 'flotilla',
        image.device_type,
        image.semver,
      );
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(size))
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );

  // balena-sdk's os.download and balena-cli's `os download`: the unconfigured image of a catalogue
  // release by device type and version; `balena os configure` then writes config.json into it.
  // Signed-in callers only (balena also serves anonymous downloads): images are the operator's.
  app.get('/download', { config: { access: 'user' } }, async (request, reply) => {
    const query = parseBody(osDownloadQuery, request.query);
    if (query.fileType !== undefined && query.fileType !== '.img') {
      throw badRequest(`fileType: images are kept unpacked (.img), not as ${query.fileType}`);
    }
    const deviceType = await findDeviceType(ctx.db, query.deviceType);
    if (deviceType === undefined) throw notFound(`Invalid device type: ${query.deviceType}`);
    const image = imageForVersion(
      await store.offeredImages(ctx.db, deviceType.slug),
      query.version,
    );
    if (image === null) {
      throw badRequest(
        `version: ${JSON.stringify(query.version)} is not a balenaOS version such as 6.0.13`,
      );
    }
    // One image per release: the kind the device type installs with (its manifest's default).
    const installer = buildDeviceTypeManifest(deviceType).yocto['image'];
    const kind = typeof installer === 'string' && installer.includes('flasher') ? 'flasher' : 'raw';
    if (image === undefined || (query.imageType !== undefined && query.imageType !== kind)) {
      const which = query.imageType === undefined ? 'OS image' : `${query.imageType} OS image`;
      throw notFound(`No ${which} of balenaOS ${query.version} for ${deviceType.slug}`);
    }
    const file = await store.imageFileOf(ctx.db, image.release);
    if (file === null) throw notFound('The image was removed');
    ensureSlot();
    const stream = createReadStream(osImagePath(dataDir, file));
    holdSlot(stream);
    return reply
      .header('content-type', 'application/octet-stream')
      .header('content-length', String(image.size))
      .header('content-disposition', `attachment; filename="${image.filename.replace(/"/g, '_')}"`)
      .header('cache-control', 'no-store')
      .send(stream);
  });
};
