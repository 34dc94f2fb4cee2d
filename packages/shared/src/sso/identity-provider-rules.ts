// The rules of an identity provider as an organization administrator enters it, checked by the
// console's form and again by the server.

export const ssoIdentifierMinLength = 3;
export const ssoIdentifierMaxLength = 100;
// A SAML metadata file imported into the form.
export const samlMetadataMaxBytes = 1_000_000;
export const certificateRowLength = 64;

export const identityProviderMessages = {
  ssoIdentifierRequired: 'The SSO identifier is required',
  ssoIdentifierTooShort: `The SSO identifier must be at least ${ssoIdentifierMinLength} characters long`,
  ssoIdentifierTooLong: `The SSO identifier must be at most ${ssoIdentifierMaxLength} characters long`,
  ssoIdentifierInvalidCharacters:
    'The SSO identifier may only contain lowercase letters, digits, underscores and hyphens',
  ssoIdentifierTaken: 'This SSO identifier is already used by another identity provider',
  entryPointInvalid: 'The entry point must be a valid http or https URL',
  issuerRequired: 'The issuer is required',
  certificateInvalid:
    'The certificate must be one PEM certificate, between its BEGIN CERTIFICATE and END CERTIFICATE lines',
  metadataTooLarge: 'The metadata file must be at most 1 MB',
  metadataUnparsable: 'Failed to parse the SAML metadata: no identity provider was found in it',
  lastOrganization: 'An identity provider must keep at least one organization',
  accountsExist:
    'This identity provider still has SAML accounts: revoke them before removing the provider',
  notAnAdministrator:
    'You cannot change this identity provider: you administer none of its organizations',
  organizationNotAdministered: 'You can only attach organizations you administer',
  teamOfOtherOrganization: "The default team must be one of the organization's teams",
} as const;

export const ssoIdentifierProblem = (value: string): string | undefined => {
  if (value.length === 0) return identityProviderMessages.ssoIdentifierRequired;
  if (!/^[a-z0-9_-]+$/.test(value)) return identityProviderMessages.ssoIdentifierInvalidCharacters;
  if (value.length < ssoIdentifierMinLength) return identityProviderMessages.ssoIdentifierTooShort;
  if (value.length > ssoIdentifierMaxLength) return identityProviderMessages.ssoIdentifierTooLong;
  return undefined;
};

export const entryPointProblem = (value: string): string | undefined => {
  if (!URL.canParse(value)) return identityProviderMessages.entryPointInvalid;
  const { protocol } = new URL(value);
  return protocol === 'https:' || protocol === 'http:'
    ? undefined
    : identityProviderMessages.entryPointInvalid;
};

const beginMarker = '-----BEGIN CERTIFICATE-----';
const endMarker = '-----END CERTIFICATE-----';

const occurrences = (text: string, part: string): number => text.split(part).length - 1;

// The base64 body of a PEM certificate (markers once each, nothing but base64 between them), or
// undefined when the text is not one. Whether the body is a certificate is the server's check.
export const certificateBody = (value: string): string | undefined => {
  const text = value.trim();
  if (occurrences(text, beginMarker) !== 1 || occurrences(text, endMarker) !== 1) return undefined;
  if (!text.startsWith(beginMarker) || !text.endsWith(endMarker)) return undefined;
  const body = text.slice(beginMarker.length, text.length - endMarker.length).replace(/\s+/g, '');
  return /^[A-Za-z0-9+/]+={0,2}$/.test(body) && body.length % 4 === 0 ? body : undefined;
};

// A certificate body (as metadata holds it, without markers) as PEM in 64-character rows.
export const pemCertificate = (body: string): string => {
  const compact = body.replace(/\s+/g, '');
  const rows = compact.match(new RegExp(`.{1,${certificateRowLength}}`, 'g')) ?? [];
  return [beginMarker, ...rows, endMarker].join('\n');
};
