import type { Profile } from '@node-saml/node-saml';
import type { Queryable } from '../../infra/db/database.js';
import {
  clockSkewMs,
  type IdentityProviderRow,
  samlFor,
  type ServiceProviderUrls,
} from './saml-service-provider.js';

export type SamlIdentity = { remoteId: string; email: string; displayName: string | null };

// Why an assertion was refused; the text reaches the console's login page, never a secret.
export class SamlRefusal extends Error {}

const attribute = (profile: Profile, ...names: string[]): string | undefined => {
  for (const name of names) {
    const value = profile[name];
    if (typeof value === 'string' && value.trim().length > 0) return value.trim();
  }
  return undefined;
};

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const identityOf = (profile: Profile): SamlIdentity => {
  const remoteId = profile.nameID;
  if (typeof remoteId !== 'string' || remoteId.length === 0) {
    throw new SamlRefusal('The identity provider sent no NameID');
  }
  const email =
    attribute(profile, 'email', 'mail', 'emailAddress', 'Email') ??
    (emailPattern.test(remoteId) ? remoteId : undefined);
  if (email === undefined || !emailPattern.test(email)) {
    throw new SamlRefusal('The identity provider sent no e-mail address');
  }
  const first = attribute(profile, 'firstName', 'givenName');
  const last = attribute(profile, 'lastName', 'surname', 'sn');
  const displayName =
    attribute(profile, 'displayName', 'name') ??
    ([first, last].filter((part) => part !== undefined).join(' ') || null);
  return { remoteId, email, displayName };
};

type AssertionFacts = { id: string; recipients: string[]; notOnOrAfter: Date | undefined };

// node-saml's parsed assertion (xml2js: attributes under `$`, children in arrays), read without
// trusting its shape.
const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value))
    : undefined;

const children = (node: Record<string, unknown> | undefined, name: string) => {
  const value = node?.[name];
  return Array.isArray(value) ? value.map(record).filter((child) => child !== undefined) : [];
};

const attributeOf = (node: Record<string, unknown> | undefined, name: string) => {
  const value = record(node?.$)?.[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};

// Read from the assertion node-saml verified the signature of, never from the unsigned envelope
// around it.
const factsOf = (profile: Profile): AssertionFacts => {
  const assertion = record(record(profile.getAssertion?.())?.Assertion);
  const id = attributeOf(assertion, 'ID');
  if (!assertion || id === undefined) throw new SamlRefusal('The assertion has no ID');
  const confirmations = children(assertion, 'Subject')
    .flatMap((subject) => children(subject, 'SubjectConfirmation'))
    .flatMap((confirmation) => children(confirmation, 'SubjectConfirmationData'));
  const recipients = confirmations
    .map((data) => attributeOf(data, 'Recipient'))
    .filter((value) => value !== undefined);
  const ends = confirmations
    .map((data) => attributeOf(data, 'NotOnOrAfter'))
    .filter((value) => value !== undefined)
    .map((value) => new Date(value))
    .filter((date) => !Number.isNaN(date.getTime()));
  return { id, recipients, notOnOrAfter: ends[0] };
};

// How long an assertion id is kept when the assertion names no end: longer than any assertion
// lives, so it cannot be accepted again while still fresh.
const replayWindowMs = 24 * 60 * 60 * 1000;

// Validates a posted SAMLResponse for the provider: signature, issuer, audience and time window
// (node-saml), recipient, and that this assertion was never accepted before. Refusals are
// SamlRefusal; the assertion id is recorded only when everything else held.
export const acceptAssertion = async (
  db: Queryable,
  provider: IdentityProviderRow,
  urls: ServiceProviderUrls,
  samlResponse: string,
  now: Date,
): Promise<SamlIdentity> => {
  let profile: Profile | null;
  try {
    ({ profile } = await samlFor(provider, urls).validatePostResponseAsync({
      SAMLResponse: samlResponse,
    }));
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'invalid response';
    throw new SamlRefusal(`The identity provider's response was refused: ${reason}`);
  }
  if (!profile) throw new SamlRefusal('The response carries no assertion');
  const facts = factsOf(profile);
  if (!facts.recipients.includes(urls.acsUrl)) {
    throw new SamlRefusal('The assertion is addressed to another recipient');
  }
  const identity = identityOf(profile);
  const expiresAt = new Date(
    (facts.notOnOrAfter?.getTime() ?? now.getTime() + replayWindowMs) + clockSkewMs,
  );
  const { rowCount } = await db.query(
    `INSERT INTO "saml_assertion_use" ("identity_provider", "assertion_id", "expires_at")
     VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
    [provider.id, facts.id, expiresAt],
  );
  if (rowCount === 0) throw new SamlRefusal('This assertion was already used');
  return identity;
};
