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
  const { rows } = await db.query<IdentityProviderRow>(
    `SELECT "id", "sso_identifier", "entry_point", "issuer", "certificate", "requires_signed_authn_response"
       FROM "identity_provider" WHERE "sso_identifier" = $1`,
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
// certificate (the assertion always; the whole response too when the provider requires it),
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
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: clockSkewMs,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    // Replay is refused by assertion id, kept in PostgreSQL for every process; node-saml's
    // request-id cache lives in one process's memory only.
    validateInResponseTo: ValidateInResponseTo.never,
  });
