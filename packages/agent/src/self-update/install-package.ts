import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { access, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { InstalledPackage } from './agent-home.js';
import type { AgentPackageRef } from './package-ref.js';

const run = promisify(execFile);

export class PackageInstallError extends Error {}

// The largest package accepted (the agent is one bundled file of a few megabytes).
const maxPackageBytes = 64 * 1024 * 1024;

const download = async (ref: AgentPackageRef, fetcher: typeof fetch): Promise<Buffer> => {
  let response: Response;
  try {
    response = await fetcher(ref.url, { signal: AbortSignal.timeout(120_000) });
  } catch (error) {
    throw new PackageInstallError(
      `could not download ${ref.url}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!response.ok) {
    throw new PackageInstallError(`could not download ${ref.url}: HTTP ${response.status}`);
  }
  const body = Buffer.from(await response.arrayBuffer());
  if (body.length > maxPackageBytes) {
    throw new PackageInstallError(`${ref.url} is larger than ${maxPackageBytes} bytes`);
  }
  return body;
};

// Downloads the package, checks its SHA-256 against the catalogue's and unpacks it into
// `<home>/packages/<version>-<sha256 prefix>/package/`. Nothing is left behind on failure.
export const installAgentPackage = async (
  home: string,
  version: string,
  ref: AgentPackageRef,
  fetcher: typeof fetch = fetch,
): Promise<InstalledPackage> => {
  const body = await download(ref, fetcher);
  const actual = createHash('sha256').update(body).digest('hex');
  if (actual !== ref.sha256) {
    throw new PackageInstallError(
      `${ref.url} does not match the release's SHA-256 (expected ${ref.sha256}, got ${actual})`,
    );
  }
  const safeVersion = version.replace(/[^0-9A-Za-z.+-]/g, '_');
  const dir = path.join(home, 'packages', `${safeVersion}-${actual.slice(0, 12)}`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    const file = path.join(dir, 'flotilla-agent.tgz');
    await writeFile(file, body, { mode: 0o600 });
    // npm packages are gzip tarballs with a package/ prefix; tar is on every Linux the agent runs.
    await run('tar', ['-xzf', file, '-C', dir, '--no-same-owner']);
    await access(path.join(dir, 'package', 'cli.js'));
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw new PackageInstallError(
      `${ref.url} is not a Flotilla agent package: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return { version, sha256: actual, dir };
};
