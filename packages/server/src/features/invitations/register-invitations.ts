import type { InvitationKind } from '@flotilla/shared/invitations/invitation-token';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { badRequest, forbidden } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { mapDatabaseError } from '../../infra/odata/database-errors.js';
import { acceptInvitation } from './accept-invitation.js';
import type { InvitationSigner } from './invitation-signing.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

const tokenParams = z.object({ token: z.string().min(1).max(2048) });

// Accepting an invitation as the signed-in user (balena-sdk organization.invite.accept and
// application.invite.accept): POST /org/v1/invitation/:token and POST /user/v1/invitation/:token.
// A new user accepts by signing up with the token instead (features/auth/register-user.ts).
export const registerInvitations = (
  app: FastifyInstance,
  ctx: AppContext,
  signer: InvitationSigner,
): void => {
  const accept = (kind: InvitationKind) => async (request: FastifyRequest) => {
    const actor = request.actor;
    if (actor.kind !== 'user') throw forbidden();
    const { token } = parseBody(tokenParams, request.params);
    const claims = signer.verify(token, ctx.now());
    if (claims.kind !== kind) {
      throw badRequest(
        kind === 'organization'
          ? 'This is a fleet invitation: open it at /invitation/...'
          : 'This is an organization invitation: open it at /organization/invitation/...',
      );
    }
    try {
      const accepted = await recordedTransaction(ctx.db, request, ctx.now, (tx) =>
        acceptInvitation(tx, claims, actor.userId),
      );
      return { [kind]: { id: accepted.id, name: accepted.name } };
    } catch (error) {
      throw mapDatabaseError(error);
    }
  };
  app.post('/org/v1/invitation/:token', { config: { access: 'user' } }, accept('organization'));
  app.post('/user/v1/invitation/:token', { config: { access: 'user' } }, accept('application'));
};
