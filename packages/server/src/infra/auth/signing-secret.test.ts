import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSigningSecret } from './signing-secret.js';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-secret-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('loadSigningSecret', () => {
  it('uses FLOTILLA_JWT_SECRET when set', async () => {
    const secret = await loadSigningSecret({ jwtSecret: 'x'.repeat(40), dataDir });
    expect(new TextDecoder().decode(secret)).toBe('x'.repeat(40));
  });

  it('creates the secret file once with mode 0600 and reuses it', async () => {
    const dir = path.join(dataDir, 'nested');
    const first = await loadSigningSecret({ jwtSecret: undefined, dataDir: dir });
    const second = await loadSigningSecret({ jwtSecret: undefined, dataDir: dir });
    expect(first.length).toBeGreaterThanOrEqual(64);
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    const file = path.join(dir, 'jwt-secret');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toBe(new TextDecoder().decode(first));
  });

  it('agrees when several loaders race', async () => {
    const secrets = await Promise.all(
      Array.from({ length: 5 }, () => loadSigningSecret({ jwtSecret: undefined, dataDir })),
    );
    const texts = new Set(secrets.map((secret) => new TextDecoder().decode(secret)));
    expect(texts.size).toBe(1);
  });
});
