import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import type { RegistrySigningKey } from './registry-signing-key.js';

// What a token grants on one resource: the `access` claim of distribution's token format.
export type GrantedAccess = { type: string; name: string; actions: string[] };

// Short-lived, but long enough for a slow upload: balena-cli pushes a whole release with the one
// token it asked for (docker with credentials asks again when a token runs out).
export const registryTokenLifetimeSeconds = 60 * 60;

export type RegistryTokenInput = {
  issuer: string;
  // The `service` the client asked for: the registry accepts only tokens for itself.
  audience: string;
  subject: string;
  access: GrantedAccess[];
  now: Date;
};

export type RegistryTokenAnswer = {
  token: string;
  access_token: string;
  expires_in: number;
  issued_at: string;
};

// Signs a registry token. The header carries the certificate (`x5c`), which distribution 2.x and
// 3.x verify against their rootcertbundle, and the key's RFC 7638 thumbprint (`kid`), by which
// distribution 3 also finds the key.
export const signRegistryToken = async (
  key: RegistrySigningKey,
  input: RegistryTokenInput,
): Promise<RegistryTokenAnswer> => {
  const issuedAt = Math.floor(input.now.getTime() / 1000);
  const token = await new SignJWT({ access: input.access })
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: key.keyId, x5c: [key.certificateDer] })
    .setIssuer(input.issuer)
    .setSubject(input.subject)
    .setAudience(input.audience)
    .setIssuedAt(issuedAt)
    .setNotBefore(issuedAt)
    .setExpirationTime(issuedAt + registryTokenLifetimeSeconds)
    .setJti(randomBytes(16).toString('hex'))
    .sign(key.privateKey);
  return {
    token,
    access_token: token,
    expires_in: registryTokenLifetimeSeconds,
    issued_at: new Date(issuedAt * 1000).toISOString(),
  };
};
