import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { publicUrlOf } from '../mail/register-mail.js';
import type { VerificationMailDeps } from './verification-mail.js';
import { createVerificationSigner } from './verification-token.js';

// The verification link's signer and the console address it points at, for an app.
export const verificationMailOf = (
  app: FastifyInstance,
  ctx: AppContext,
): VerificationMailDeps => ({
  signer: createVerificationSigner(ctx.jwtSecret),
  publicUrl: () => publicUrlOf(app, ctx.config.publicUrl),
});
