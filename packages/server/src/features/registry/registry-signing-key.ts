import {
  createPrivateKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  X509Certificate,
} from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK } from 'jose';
import sshpk from 'sshpk';

// The key pair that signs registry tokens (ES256), kept in the data directory so tokens stay
// valid across restarts and every process of an installation signs with the same key. The
// registry trusts the self-signed certificate (its `auth.token.rootcertbundle`).
export const registryKeyFileName = 'registry-token.key';
export const registryCertificateFileName = 'registry-token.crt';

const certificateLifetimeSeconds = 20 * 365 * 24 * 60 * 60;
const certificateSubject = 'flotilla-registry-token';

export type RegistrySigningKey = {
  privateKey: KeyObject;
  // PEM, as the registry's rootcertbundle takes it.
  certificatePem: string;
  certificatePath: string;
  // The certificate in DER, base64: the token's `x5c` header.
  certificateDer: string;
  // RFC 7638 thumbprint of the public key: the token's `kid`.
  keyId: string;
};

const codeOf = (error: unknown): unknown =>
  error && typeof error === 'object' && 'code' in error ? error.code : undefined;

const readIfPresent = async (file: string): Promise<string | undefined> => {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return undefined;
    throw error;
  }
};

// Writes `file` once: a private temporary file hard-linked into place, so a process racing
// another (several server processes on one data directory) keeps the winner's and nobody reads
// a half-written file. Answers what the file holds afterwards.
const createOnce = async (file: string, content: string, mode: number): Promise<string> => {
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, content, { mode, flag: 'wx' });
  try {
    await link(temporary, file);
  } catch (error) {
    if (codeOf(error) !== 'EEXIST') throw error;
  } finally {
    await unlink(temporary);
  }
  return readFile(file, 'utf8');
};

const newPrivateKeyPem = (): string =>
  generateKeyPairSync('ec', { namedCurve: 'P-256' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();

const newCertificatePem = (privateKeyPem: string): string =>
  sshpk
    .createSelfSignedCertificate(
      sshpk.identityForHost(certificateSubject),
      sshpk.parsePrivateKey(privateKeyPem, 'pem'),
      { lifetime: certificateLifetimeSeconds },
    )
    .toString('pem');

// Reads the key and certificate from the data directory, creating whichever is missing.
export const loadRegistrySigningKey = async (dataDir: string): Promise<RegistrySigningKey> => {
  await mkdir(dataDir, { recursive: true });
  const keyPath = path.join(dataDir, registryKeyFileName);
  const certificatePath = path.join(dataDir, registryCertificateFileName);
  const keyPem =
    (await readIfPresent(keyPath)) ?? (await createOnce(keyPath, newPrivateKeyPem(), 0o600));
  const privateKey = createPrivateKey(keyPem);
  const certificatePem =
    (await readIfPresent(certificatePath)) ??
    (await createOnce(certificatePath, newCertificatePem(keyPem), 0o644));
  const certificate = new X509Certificate(certificatePem);
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new Error(
      `${certificatePath} does not hold the public key of ${keyPath}; remove the certificate to have it made again`,
    );
  }
  const jwk = await exportJWK(certificate.publicKey);
  return {
    privateKey,
    certificatePem,
    certificatePath,
    certificateDer: certificate.raw.toString('base64'),
    keyId: await calculateJwkThumbprint(jwk),
  };
};
