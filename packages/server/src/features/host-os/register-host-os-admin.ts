import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { notFound } from '../../infra/errors/api-error.js';
import { maxRowId, parseBody } from '../../infra/http/validate.js';
import { requirePlatformAdmin } from '../platform-admin/register-platform-admin.js';
import { catalogueEdit, catalogueEntry, catalogueFile } from './catalogue-entry.js';
import {
  describeEntry,
  editRelease,
  importCatalogue,
  listReleases,
  removeRelease,
  writeEntry,
} from './catalogue-store.js';
import { removeImageFile } from './os-image-files.js';
import { imageFileOf } from './os-image-store.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

const idParams = z.object({ id: z.coerce.number().int().positive().max(maxRowId) });

// A catalogue file of the largest size allowed (5,000 releases with their notes).
const catalogueBodyLimit = 16 * 1024 * 1024;

// The host OS and supervisor catalogue, written by platform administrators only (everyone signed
// in reads it through /v7 as balena's API serves it): list, add, edit (including invalidating),
// remove, and import a catalogue file.
export const registerHostOsAdmin = (app: FastifyInstance, ctx: AppContext): void => {
  const findRelease = async (id: number) => {
    const [release] = await listReleases(ctx.db, { id });
    if (release === undefined) throw notFound(`No OS or supervisor release ${id} in the catalogue`);
    return release;
  };

  app.get('/admin/v1/host-os/releases', { config: { access: 'user' } }, async (request) => {
    requirePlatformAdmin(request.actor);
    return listReleases(ctx.db);
  });

  app.post('/admin/v1/host-os/releases', { config: { access: 'user' } }, async (request, reply) => {
    requirePlatformAdmin(request.actor);
    const entry = parseBody(catalogueEntry, request.body);
    const { id } = await recordedTransaction(
      ctx.db,
      request,
      ctx.now,
      (tx) => writeEntry(tx, entry, describeEntry(entry), 'create'),
      { status: 201 },
    );
    return reply.status(201).send(await findRelease(id));
  });

  app.patch('/admin/v1/host-os/releases/:id', { config: { access: 'user' } }, async (request) => {
    requirePlatformAdmin(request.actor);
    const { id } = parseBody(idParams, request.params);
    const edit = parseBody(catalogueEdit, request.body);
    await recordedTransaction(ctx.db, request, ctx.now, (tx) => editRelease(tx, id, edit));
    return findRelease(id);
  });

  app.delete(
    '/admin/v1/host-os/releases/:id',
    { config: { access: 'user' } },
    async (request, reply) => {
      requirePlatformAdmin(request.actor);
      const { id } = parseBody(idParams, request.params);
      // The release's provisioning image goes with it (its row by cascade, its file here).
      const imageFile = await imageFileOf(ctx.db, id);
      await recordedTransaction(ctx.db, request, ctx.now, (tx) => removeRelease(tx, id), {
        status: 204,
      });
      if (imageFile !== null) await removeImageFile(ctx.config.dataDir, imageFile);
      return reply.status(204).send();
    },
  );

  app.post(
    '/admin/v1/host-os/catalogue',
    { config: { access: 'user' }, bodyLimit: catalogueBodyLimit },
    async (request) => {
      requirePlatformAdmin(request.actor);
      const file = parseBody(catalogueFile, request.body);
      return recordedTransaction(ctx.db, request, ctx.now, (tx) => importCatalogue(tx, file));
    },
  );
};
