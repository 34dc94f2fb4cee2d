import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import { ManualClock } from '../test-support/manual-clock.js';
import { emptyHomeState, readHomeState, writeHomeState } from './agent-home.js';
import { SelfUpdater, supervisorReleaseOf } from './self-updater.js';

// The running agent's side of a supervisor update: only a newer release naming a package with its
// SHA-256 is installed (downloaded, checked, unpacked), marked on trial and followed by a restart;
// a package that does not match, is not an agent package or was rolled back before is not.

const run = promisify(execFile);
const api = 'http://10.0.0.5:8080';

describe('SelfUpdater', () => {
  let home: string;
  let packageBody: Buffer;
  let sha: string;
  let served: string[];
  let lines: string[];
  let failures: string[];
  let restarts: number;

  const updater = (body: Buffer = packageBody) =>
    new SelfUpdater({
      home,
      apiEndpoint: api,
      runningVersion: '17.1.0',
      clock: new ManualClock(1000),
      logger: silentLogger,
      log: (message) => lines.push(message),
      onFailure: (message) => failures.push(message),
      restart: () => {
        restarts++;
      },
      // Strict: the one URL the release names, nothing else.
      fetch: async (url) => {
        served.push(String(url));
        if (String(url) !== `${api}/agent/flotilla-agent.tgz`)
          return new Response('', { status: 404 });
        return new Response(body);
      },
    });

  const release = (version: string, digest = sha) => ({
    version,
    updaterImage: `/agent/flotilla-agent.tgz#sha256=${digest}`,
  });

  beforeEach(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'flotilla-self-update-'));
    const source = path.join(home, 'source');
    await mkdir(path.join(source, 'package'), { recursive: true });
    await writeFile(path.join(source, 'package', 'cli.js'), 'process.exit(0);\n');
    await run('tar', ['-czf', path.join(home, 'agent.tgz'), '-C', source, 'package']);
    packageBody = await readFile(path.join(home, 'agent.tgz'));
    sha = createHash('sha256').update(packageBody).digest('hex');
    served = [];
    lines = [];
    failures = [];
    restarts = 0;
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('installs a newer release’s package, puts it on trial and restarts', async () => {
    expect(await updater().apply(release('17.2.0'))).toBe(true);
    const state = await readHomeState(home);
    expect(state).toMatchObject({
      current: { version: '17.2.0', sha256: sha },
      previous: null,
      trial: { startedAt: 1000 },
    });
    const dir = state.current?.dir ?? '';
    expect(await readFile(path.join(dir, 'package', 'cli.js'), 'utf8')).toBe('process.exit(0);\n');
    expect(restarts).toBe(1);
    expect(lines).toEqual([
      `Supervisor update: downloading 17.2.0 from ${api}/agent/flotilla-agent.tgz`,
      'Supervisor update: restarting into 17.2.0',
    ]);
  });

  it('leaves the same or an older release, and no release, alone', async () => {
    const agent = updater();
    for (const target of [release('17.1.0'), release('16.0.0'), null]) {
      expect(await agent.apply(target)).toBe(false);
    }
    expect(served).toEqual([]);
  });

  it('refuses a package whose SHA-256 differs, keeping nothing', async () => {
    const agent = updater(Buffer.concat([packageBody, Buffer.from('tampered')]));
    expect(await agent.apply(release('17.2.0'))).toBe(false);
    expect(restarts).toBe(0);
    expect(await readHomeState(home)).toEqual(emptyHomeState);
    expect(lines.at(-1)).toMatch(
      /^Supervisor update to 17\.2\.0 failed: .* does not match the release's SHA-256/,
    );
    expect(failures).toEqual([lines.at(-1)]);
  });

  it('refuses a download that is not an agent package', async () => {
    const notPackage = Buffer.from('not a tarball');
    const digest = createHash('sha256').update(notPackage).digest('hex');
    expect(await updater(notPackage).apply(release('17.2.0', digest))).toBe(false);
    expect(lines.at(-1)).toMatch(/is not a Flotilla agent package/);
    expect(await readdir(path.join(home, 'packages'))).toEqual([]);
  });

  it('says once that a release names no agent package, and skips a rolled-back one', async () => {
    const agent = updater();
    const registryImage = {
      version: '17.2.0',
      updaterImage: 'registry.example.com/supervisor:v17.2.0',
    };
    await agent.apply(registryImage);
    await agent.apply(registryImage);
    expect(lines).toEqual([
      'Supervisor update to 17.2.0 skipped: the release names no Flotilla agent package (updater image <url>#sha256=<digest>)',
    ]);
    await writeHomeState(home, { ...emptyHomeState, rejected: [sha] });
    expect(await agent.apply(release('17.3.0'))).toBe(false);
    expect(served).toEqual([]);
    expect(lines.at(-1)).toBe(
      'Supervisor update to 17.3.0 skipped: this package was rolled back before',
    );
  });

  it('announces a rollback once, at the next start', async () => {
    await writeHomeState(home, {
      ...emptyHomeState,
      lastOutcome: {
        version: '17.3.0',
        result: 'rolled-back',
        reason: 'it exited with code 1 before it reported in',
        announced: false,
      },
    });
    await updater().announce();
    await updater().announce();
    const failure =
      'Supervisor update to 17.3.0 failed: it exited with code 1 before it reported in; rolled back to 17.1.0';
    expect(lines).toEqual([failure]);
    // The device reports it after every start, so the console does not show an endless update.
    expect(failures).toEqual([failure, failure]);
  });
});

describe('supervisorReleaseOf', () => {
  it('reads the version and the updater image of the expanded release', () => {
    expect(
      supervisorReleaseOf({
        d: [
          {
            id: 1,
            should_be_managed_by__release: [
              {
                raw_version: '17.2.0',
                contains__image: [
                  { id: 4, image: [{ is_stored_at__image_location: '/a.tgz#sha256=x' }] },
                ],
              },
            ],
          },
        ],
      }),
    ).toEqual({ version: '17.2.0', updaterImage: '/a.tgz#sha256=x' });
    expect(
      supervisorReleaseOf({
        d: [
          {
            id: 1,
            should_be_managed_by__release: [{ raw_version: '17.2.0', contains__image: [] }],
          },
        ],
      }),
    ).toEqual({ version: '17.2.0', updaterImage: null });
    expect(supervisorReleaseOf({ d: [{ id: 1, should_be_managed_by__release: [] }] })).toBeNull();
  });
});
