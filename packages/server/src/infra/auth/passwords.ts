import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from 'node:crypto';

// Stored as `scrypt$N=<n>,r=<r>,p=<p>$<salt base64>$<hash base64>` so the cost can be raised later
// without invalidating existing hashes: verification always uses the parameters it finds.
const scheme = 'scrypt';
const saltBytes = 16;
const keyBytes = 32;

export type ScryptParams = { N: number; r: number; p: number };

// 128 * N * r = 16 MiB per hash: memory-hard, yet fast enough (~50 ms) for interactive logins.
export const defaultScryptParams: ScryptParams = { N: 16_384, r: 8, p: 1 };

// Bounds on parameters read back from storage, so a corrupted row cannot exhaust memory.
const maxN = 1_048_576;
const maxR = 32;
const maxP = 16;

const derive = (password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> => {
  const options: ScryptOptions = {
    N: params.N,
    r: params.r,
    p: params.p,
    maxmem: 256 * params.N * params.r + 1_048_576,
  };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keyBytes, options, (error, key) => {
      if (error) reject(error);
      else resolve(key);
    });
  });
};

export const hashPassword = async (
  password: string,
  params: ScryptParams = defaultScryptParams,
): Promise<string> => {
  const salt = randomBytes(saltBytes);
  const key = await derive(password, salt, params);
  return `${scheme}$N=${params.N},r=${params.r},p=${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
};

type ParsedHash = { params: ScryptParams; salt: Buffer; key: Buffer };

const parseHash = (stored: string): ParsedHash | undefined => {
  const parts = stored.split('$');
  if (parts.length !== 4 || parts[0] !== scheme) return undefined;
  const match = /^N=(\d+),r=(\d+),p=(\d+)$/.exec(parts[1] ?? '');
  if (!match) return undefined;
  const params = { N: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  const powerOfTwo = params.N > 1 && (params.N & (params.N - 1)) === 0;
  if (!powerOfTwo || params.N > maxN || params.r < 1 || params.r > maxR) return undefined;
  if (params.p < 1 || params.p > maxP) return undefined;
  const salt = Buffer.from(parts[2] ?? '', 'base64');
  const key = Buffer.from(parts[3] ?? '', 'base64');
  if (salt.length === 0 || key.length === 0) return undefined;
  return { params, salt, key };
};

// A malformed or missing stored hash never matches; the comparison is constant-time.
export const verifyPassword = async (
  password: string,
  stored: string | null | undefined,
): Promise<boolean> => {
  const parsed = stored ? parseHash(stored) : undefined;
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed.params);
  return candidate.length === parsed.key.length && timingSafeEqual(candidate, parsed.key);
};

// Spends the same time as a real verification, so an unknown username cannot be told apart from
// a wrong password by timing.
let dummyHash: Promise<string> | undefined;
export const verifyAgainstDummy = async (password: string): Promise<false> => {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(password, await dummyHash);
  return false;
};
