import { SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import type { Queryable } from '../../infra/db/database.js';

export type IdentityProviderRow = {
  id: number;
  sso_identifier: string;
  entry_point: string;
  issuer: string;
  certificate: string;
  requires_signed_authn_response: boolean;
};

export const findProvider = async (
  db: Queryable,
  ssoIdentifier: string,
): Promise<IdentityProviderRow | undefined> => {
  // A provider left without organizations (their deletion) serves nobody: unknown here.
  const { rows } = await db.query<IdentityProviderRow>(
    `SELECT p."id", p."sso_identifier", p."entry_point", p."issuer", p."certificate", p."requires_signed_authn_response"
       FROM "identity_provider" p
      WHERE p."sso_identifier" = $1
        AND EXISTS (SELECT 1 FROM "identity_provider_membership" m WHERE m."is_authorized_by__identity_provider" = p."id")`,
    [ssoIdentifier],
  );
  return rows[0];
};

// Where this server is, as the identity provider sees it, for one provider: our entity id (the
// audience its assertions must name) and the assertion consumer service (their recipient).
export type ServiceProviderUrls = { entityId: string; acsUrl: string; metadataUrl: string };

export const serviceProviderUrls = (base: string, ssoIdentifier: string): ServiceProviderUrls => {
  const root = `${base}/auth/saml/${encodeURIComponent(ssoIdentifier)}`;
  return {
    entityId: `${root}/metadata`,
    metadataUrl: `${root}/metadata`,
    acsUrl: `${root}/callback`,
  };
};

// How far the clocks of the identity provider and this server may differ.
export const clockSkewMs = 60_000;

// node-saml configured for one provider: it checks the XML signature against the provider's
// certificate (the assertion always; the whole response too unless the provider's
// requires_signed_authn_response is off),
// the audience and the time window. Replay and recipient are checked by saml-assertion.ts.
export const samlFor = (provider: IdentityProviderRow, urls: ServiceProviderUrls): SAML =>
  new SAML({
    entryPoint: provider.entry_point,
    idpIssuer: provider.issuer,
    idpCert: provider.certificate,
    issuer: urls.entityId,
    audience: urls.entityId,
    callbackUrl: urls.acsUrl,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: provider.requires_signed_authn_response,
    acceptedClockSkewMs: clockSkewMs,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    // Replay is refused by assertion id, kept in PostgreSQL for every process; node-saml's
    // request-id cache lives in one process's memory only.
    validateInResponseTo: ValidateInResponseTo.never,
  });
