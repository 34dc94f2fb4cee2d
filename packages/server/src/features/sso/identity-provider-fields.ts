import { X509Certificate } from 'node:crypto';
import {
  certificateBody,
  entryPointProblem,
  identityProviderMessages,
  pemCertificate,
  ssoIdentifierProblem,
} from '@flotilla/shared/sso/identity-provider-rules';
import type { Values } from '../../infra/odata/hooks.js';
import { badRequest } from '../../infra/errors/api-error.js';

const textOf = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

// A PEM certificate that parses, re-wrapped in 64-character rows.
export const normalizedCertificate = (value: unknown): string => {
  const body = certificateBody(textOf(value));
  if (body === undefined) throw badRequest(identityProviderMessages.certificateInvalid);
  const pem = pemCertificate(body);
  try {
    new X509Certificate(pem);
  } catch {
    throw badRequest(identityProviderMessages.certificateInvalid);
  }
  return pem;
};

// Checks (and trims) the provider fields a write sets; a create must set all of them.
export const checkProviderFields = (values: Values, mode: 'create' | 'update'): void => {
  const present = (field: string) => mode === 'create' || field in values;
  if (present('sso_identifier')) {
    const identifier = textOf(values.sso_identifier);
    const problem = ssoIdentifierProblem(identifier);
    if (problem !== undefined) throw badRequest(problem);
    values.sso_identifier = identifier;
  }
  if (present('entry_point')) {
    const entryPoint = textOf(values.entry_point);
    const problem = entryPointProblem(entryPoint);
    if (problem !== undefined) throw badRequest(problem);
    values.entry_point = entryPoint;
  }
  if (present('issuer')) {
    const issuer = textOf(values.issuer);
    if (issuer.length === 0) throw badRequest(identityProviderMessages.issuerRequired);
    values.issuer = issuer;
  }
  if (present('certificate')) values.certificate = normalizedCertificate(values.certificate);
};
