import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { passwordLength } from '@flotilla/shared/constants/limits';
import { usernameProblem, usernameRuleText } from '@flotilla/shared/users/username';
import type { AppContext } from '../../app-context.js';
import { hashPassword } from '../../infra/auth/passwords.js';
import { ApiError } from '../../infra/errors/api-error.js';
import { mapDatabaseError } from '../../infra/odata/database-errors.js';
import { clientAddressKey } from '../../infra/http/client-address.js';
import { parseBody } from '../../infra/http/validate.js';
import { createRateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { acceptInvitation } from '../invitations/accept-invitation.js';
import { createInvitationSigner } from '../invitations/invitation-signing.js';
import { createUserWithPersonalOrganization } from '../users/create-user.js';
import {
  queueVerificationMail,
  type VerificationMailDeps,
} from '../email-verification/verification-mail.js';
import type { CaptchaVerifier } from './captcha.js';
import { issueSessionToken } from './issue-session-token.js';
import { throttleAccountRequest } from './request-throttle.js';
import { checkSignupAllowed } from './signup-policy.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

// Sign-up payload. With an invitation token, the new account accepts
// the invitation in the same transaction (the token must be valid and for this e-mail).
const registerBody = z.object({
  email: z
    .string({ error: 'E-mail is required' })
    .trim()
    .max(254, 'E-mail address is too long')
    .email('Invalid e-mail address'),
  password: z
    .string({ error: 'Password is required' })
    .min(passwordLength.min, `Password must be at least ${passwordLength.min} characters`)
    .max(passwordLength.max, `Password must be at most ${passwordLength.max} characters`),
  'g-recaptcha-response': z.string().max(10_000).optional(),
  has_disabled_newsletter: z.boolean().optional(),
  username: z
    .string()
    .refine((username) => usernameProblem(username) === undefined, usernameRuleText)
    .optional(),
  invitationType: z.enum(['organization', 'application']).optional(),
  invitationToken: z.string().max(2048).optional(),
});

// POST /user/register: creates the account with its personal organization and answers, like
// /login_, 200 with the session token as a text body. Without an invitation (which reached the
// address), the account gets a verification mail in the same transaction, and must verify before
// anything else when FLOTILLA_REQUIRE_EMAIL_VERIFICATION is on. Throttled per client address
// (FLOTILLA_SIGNUP_RATE_LIMIT) before the captcha is asked, so floods never reach its provider.
export const registerSignUp = (
  app: FastifyInstance,
  ctx: AppContext,
  captcha: CaptchaVerifier,
  verification: VerificationMailDeps,
): void => {
  const limiter = createRateLimiter(ctx.db, ctx.now);
  const invitations = createInvitationSigner(ctx.jwtSecret);
  app.post('/user/register', { config: { access: 'public' } }, async (request, reply) => {
    const body = parseBody(registerBody, request.body);
    checkSignupAllowed(ctx.config.signup, body.invitationToken);
    await throttleAccountRequest(limiter, {
      kind: 'signup',
      clientAddress: clientAddressKey(request.ip),
      limitPerHour: ctx.config.signupRateLimitPerHour,
    });
    if (!(await captcha.verify(body['g-recaptcha-response'], request.ip))) {
      throw new ApiError('bad_request', 'Invalid captcha response');
    }
    const invitation =
      body.invitationToken === undefined
        ? undefined
        : invitations.verify(body.invitationToken, ctx.now());
    if (invitation && body.invitationType && body.invitationType !== invitation.kind) {
      throw new ApiError('bad_request', `This is not an ${body.invitationType} invitation`);
    }
    const passwordHash = await hashPassword(body.password);
    let userId: number;
    try {
      ({ userId } = await recordedTransaction(ctx.db, request, ctx.now, async (tx) => {
        const created = await createUserWithPersonalOrganization(tx, {
          email: body.email,
          passwordHash,
          // The invitation reached this address: it needs no other verification.
          ...(invitation
            ? { isVerified: true }
            : { mustBeVerified: ctx.config.requireEmailVerification }),
          ...(body.username !== undefined ? { username: body.username } : {}),
          ...(body.has_disabled_newsletter !== undefined
            ? { hasDisabledNewsletter: body.has_disabled_newsletter }
            : {}),
        });
        if (invitation) await acceptInvitation(tx, invitation, created.userId);
        else {
          await queueVerificationMail(tx, verification, {
            userId: created.userId,
            email: created.email,
            now: ctx.now(),
            change: false,
          });
        }
        return created;
      }));
    } catch (error) {
      // Two sign-ups racing for one e-mail or username meet the unique constraints: 409.
      throw mapDatabaseError(error);
    }
    const token = await issueSessionToken(ctx, ctx.db, userId);
    return reply.type('text/plain; charset=utf-8').send(token);
  });
};
