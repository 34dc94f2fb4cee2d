import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { forbidden, notFound } from '../../infra/errors/api-error.js';
import { maxRowId, parseBody } from '../../infra/http/validate.js';
import { recordRouteChange } from '../audit-log/audit-route-records.js';
import { requesterOf } from './requester.js';
import {
  organizationMayOpenPrivateSupport,
  type PaidPlanGate,
  isSupportStaff,
  requireOrganizationMember,
  requireSupportStaff,
} from './support-access.js';
import type { SupportDesk } from './support-desk.js';
import { submitTicketBody } from './ticket-form.js';
import { parseUploadForm, readLimited, uploadBodyLimit } from './upload-form.js';

const orgParams = z.object({ orgId: z.coerce.number().int().min(1).max(maxRowId) });
const accountParams = z.object({ id: z.coerce.number().int().min(1).max(maxRowId) });

export const noPrivateSupport = 'Private support is available on paid plans';

// The ticket form's calls on the API host, in the shapes of the hosted desk (Zendesk behind
// /zendesk/v1), so a console built for it works unchanged, and the support check of the billing
// API. Members of the organization only; submitting and uploading also need private support
// (support staff may upload too, for their replies).
export const registerTicketForm = (
  app: FastifyInstance,
  ctx: AppContext,
  desk: SupportDesk,
  paidPlanGate: PaidPlanGate,
): void => {
  const mayOpen = (organizationId: number) =>
    organizationMayOpenPrivateSupport(ctx.config.billingEnabled, organizationId, paidPlanGate);

  app.get(
    '/billing/v1/account/:id/can-access-support',
    { config: { access: 'user' } },
    async (request) => {
      const { id } = parseBody(accountParams, request.params);
      await requireOrganizationMember(ctx.db, request.actor, id);
      return mayOpen(id);
    },
  );

  // Which desk takes tickets: the console lists tickets only when they are its own.
  app.get('/support/v1/desk', { config: { access: 'user' } }, () => ({ kind: desk.kind }));

  app.get('/zendesk/v1/:orgId/ticket-fields', { config: { access: 'user' } }, async (request) => {
    const { orgId } = parseBody(orgParams, request.params);
    await requireOrganizationMember(ctx.db, request.actor, orgId);
    return { ticket_fields: await desk.ticketFields() };
  });

  app.post(
    '/zendesk/v1/:orgId/submit-ticket',
    { config: { access: 'user' } },
    async (request, reply) => {
      const { orgId } = parseBody(orgParams, request.params);
      const user = await requireOrganizationMember(ctx.db, request.actor, orgId, 'create');
      if (!(await mayOpen(orgId))) throw forbidden(noPrivateSupport);
      const ticket = parseBody(submitTicketBody, request.body);
      const requester = await requesterOf(ctx.db, user.userId);
      const answer = await desk.submitTicket(orgId, requester, ticket, (tx) =>
        recordRouteChange(tx, request, ctx.now(), { status: 201 }),
      );
      return reply.status(201).send(answer);
    },
  );

  // The form's file arrives as multipart/form-data; this scope reads it with its own limit
  // instead of the release assets' parser the root scope has.
  void app.register((scope, _options, done) => {
    scope.removeContentTypeParser('multipart/form-data');
    scope.addContentTypeParser('multipart/form-data', (request, payload, parsed) => {
      const contentType = request.headers['content-type'] ?? '';
      readLimited(payload)
        .then((bytes) => parseUploadForm(contentType, bytes))
        .then(
          (file) => parsed(null, file),
          (error: unknown) => parsed(error instanceof Error ? error : new Error(String(error))),
        );
    });
    scope.post(
      '/zendesk/v1/:orgId/upload-attachment',
      { config: { access: 'user' }, bodyLimit: uploadBodyLimit },
      async (request, reply) => {
        const { orgId } = parseBody(orgParams, request.params);
        // Support staff attach files to their replies on any organization's tickets.
        const staff = isSupportStaff(request.actor);
        const user = staff
          ? requireSupportStaff(request.actor)
          : await requireOrganizationMember(ctx.db, request.actor, orgId, 'create');
        if (staff) {
          const { rows } = await ctx.db.query('SELECT 1 FROM "organization" WHERE "id" = $1', [
            orgId,
          ]);
          if (rows.length === 0) throw notFound(`No organization ${orgId}`);
        }
        if (!staff && !(await mayOpen(orgId))) {
          throw forbidden(noPrivateSupport);
        }
        const file = parseBody(uploadedFile, request.body);
        const answer = await desk.uploadAttachment(
          orgId,
          await requesterOf(ctx.db, user.userId),
          file,
          (tx) => recordRouteChange(tx, request, ctx.now(), { status: 201 }),
        );
        return reply.status(201).send(answer);
      },
    );
    done();
  });
};

// What the scope's parser gives (a JSON body or none is refused here).
const uploadedFile = z.object(
  {
    fileName: z.string(),
    contentType: z.string(),
    bytes: z.instanceof(Buffer),
  },
  { error: 'Send the file as multipart/form-data' },
);
