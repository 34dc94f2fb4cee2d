import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/config.js';

const secretFileName = 'jwt-secret';
const generatedSecretBytes = 64;

const readSecretFile = async (file: string): Promise<Uint8Array> => {
  const text = (await readFile(file, 'utf8')).trim();
  if (text.length < 32) throw new Error(`${file} holds a secret shorter than 32 characters`);
  return new TextEncoder().encode(text);
};

// The key that signs session tokens: FLOTILLA_JWT_SECRET when set, otherwise a random secret kept
// in <dataDir>/jwt-secret (created once, mode 0600) so sessions survive restarts.
export const loadSigningSecret = async (
  config: Pick<Config, 'jwtSecret' | 'dataDir'>,
): Promise<Uint8Array> => {
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret);
  const file = path.join(config.dataDir, secretFileName);
  try {
    return await readSecretFile(file);
  } catch (error) {
    if (!isMissingFile(error)) throw error;
  }
  await mkdir(config.dataDir, { recursive: true });
  // Written to a private temporary file, then hard-linked into place: link() fails if another
  // process won the race, and nobody ever reads a half-written secret.
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, `${randomBytes(generatedSecretBytes).toString('base64url')}\n`, {
    mode: 0o600,
    flag: 'wx',
  });
  try {
    await link(temporary, file);
  } catch (error) {
    if (!isAlreadyExisting(error)) throw error;
  } finally {
    await unlink(temporary);
  }
  return readSecretFile(file);
};

const codeOf = (error: unknown): unknown =>
  error && typeof error === 'object' && 'code' in error ? error.code : undefined;
const isMissingFile = (error: unknown): boolean => codeOf(error) === 'ENOENT';
const isAlreadyExisting = (error: unknown): boolean => codeOf(error) === 'EEXIST';
