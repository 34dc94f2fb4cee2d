import {
  type SocialExchangeAnswer,
  type SocialProvider,
  socialAuthMessages,
  socialProviderLabels,
} from '@flotilla/shared/social-auth/social-providers';
import {
  signupClosedMessage,
  signupInvitationOnlyMessage,
} from '@flotilla/shared/auth/signup-mode';
import type { AppContext } from '../../app-context.js';
import type { Queryable } from '../../infra/db/database.js';
import { badRequest, conflict } from '../../infra/errors/api-error.js';
import { mapDatabaseError } from '../../infra/odata/database-errors.js';
import { issueSessionToken } from '../auth/issue-session-token.js';
import { isTwoFactorEnabled } from '../two-factor/two-factor-store.js';
import { createUserWithPersonalOrganization } from '../users/create-user.js';
import type { ProviderIdentity } from './provider-clients.js';
import {
  findAccountByEmail,
  findLinkedUser,
  insertLink,
  refreshDisplayName,
  userHasProviderLink,
} from './social-account-store.js';
import type { SocialTokens } from './social-tokens.js';

type Deps = Pick<AppContext, 'db' | 'config' | 'jwtSecret' | 'now'> & { tokens: SocialTokens };

// A session for the user, pending its second factor when the account has one.
export const sessionFor = async (deps: Deps, userId: number): Promise<string> =>
  issueSessionToken(deps, deps.db, userId, {
    ...((await isTwoFactorEnabled(deps.db, userId)) ? { twoFactorRequired: true } : {}),
  });

// Links the provider's account to a user who proved themselves (a session that started the
// link, or their password): refused when it is another user's, or when the user already has
// another account of this provider. Run in a transaction (the route's, with its record).
export const linkToUser = async (
  tx: Queryable,
  provider: SocialProvider,
  identity: Pick<ProviderIdentity, 'remoteId' | 'displayName'>,
  userId: number,
): Promise<void> => {
  const label = socialProviderLabels[provider];
  // Serialises links of one user, so two at once cannot both pass the check.
  await tx.query('SELECT 1 FROM "user" WHERE "id" = $1 FOR UPDATE', [userId]);
  const owner = await findLinkedUser(tx, provider, identity.remoteId);
  if (owner === userId) {
    await refreshDisplayName(tx, provider, identity.remoteId, identity.displayName);
    return;
  }
  if (owner !== undefined) throw conflict(socialAuthMessages.linkedElsewhere(label));
  if (await userHasProviderLink(tx, userId, provider)) {
    throw conflict(socialAuthMessages.alreadyLinkedProvider(label));
  }
  try {
    await insertLink(tx, { userId, provider, ...identity });
  } catch (error) {
    throw mapDatabaseError(error);
  }
};

// What a provider's answer leads to: the linked account signs in; a new verified address signs
// up; an address an account already holds waits for that account's proof (never linked by
// e-mail alone); an address the provider does not vouch for is refused.
export const signInWith = async (
  deps: Deps,
  provider: SocialProvider,
  identity: ProviderIdentity,
  // Runs the sign-in's writes (the route's: with its audit record).
  transaction: <T>(work: (tx: Queryable) => Promise<T>) => Promise<T> = (work) =>
    deps.db.transaction(work),
): Promise<SocialExchangeAnswer> => {
  const label = socialProviderLabels[provider];
  const linked = await findLinkedUser(deps.db, provider, identity.remoteId);
  if (linked !== undefined) {
    await transaction((tx) =>
      refreshDisplayName(tx, provider, identity.remoteId, identity.displayName),
    );
    return { outcome: 'signed-in', token: await sessionFor(deps, linked) };
  }
  if (identity.email === undefined || !identity.emailVerified) {
    throw badRequest(socialAuthMessages.unverifiedEmail(label));
  }
  const existing = await findAccountByEmail(deps.db, identity.email);
  if (existing) {
    if (await userHasProviderLink(deps.db, existing.id, provider)) {
      throw conflict(socialAuthMessages.alreadyLinkedProvider(label));
    }
    const linkToken = await deps.tokens.signLink({
      provider,
      remoteId: identity.remoteId,
      displayName: identity.displayName,
      userId: existing.id,
    });
    return {
      outcome: 'link-required',
      linkToken,
      email: identity.email,
      hasPassword: existing.hasPassword,
    };
  }
  // Sign-up as FLOTILLA_SIGNUP allows (an invitation's token cannot ride along), in the words of
  // /user/register, but 400 rather than its 401: clients read a 401 as a session that ended.
  if (deps.config.signup !== 'open') {
    throw badRequest(
      deps.config.signup === 'closed' ? signupClosedMessage : signupInvitationOnlyMessage,
    );
  }
  const email = identity.email;
  let userId: number;
  try {
    userId = await transaction(async (tx) => {
      // The provider vouched for the address; the account has no password until its owner sets one.
      const created = await createUserWithPersonalOrganization(tx, {
        email,
        passwordHash: null,
        isVerified: true,
      });
      await insertLink(tx, {
        userId: created.userId,
        provider,
        remoteId: identity.remoteId,
        displayName: identity.displayName,
      });
      return created.userId;
    });
  } catch (error) {
    throw mapDatabaseError(error);
  }
  return { outcome: 'signed-in', token: await sessionFor(deps, userId) };
};
