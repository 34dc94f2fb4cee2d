import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { defaultAgentPackageFile } from '@flotilla/server/features/agent-package/register-agent-package';
import { importCatalogue } from '@flotilla/server/features/host-os/catalogue-store';
import { agentPackagePath } from '@flotilla/shared/agent/agent-package';
import { startTestServer, type TestServer } from '@flotilla/server/test-support/test-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BalenaFleet,
  type BalenaUser,
  createBalenaFleet,
  registerBalenaUser,
  waitUntil,
} from '../support/balena-sdk-setup.js';
import { createNpmSandbox, type NpmSandbox } from '../support/npm-sandbox.js';
import { type ServiceLoop, startServiceLoop } from '../support/service-loop.js';

// A supervisor update of a REAL agent: the agent package installed from the server as the
// install instructions say (npm install), run by a loop standing in for the service manager's
// Restart=always. Told to run a supervisor release whose updater image names the server's agent
// package and its SHA-256, the agent downloads and verifies it, swaps it in and exits; started
// again, it runs the new package, which reports in with the release's version. A release naming
// a broken package is swapped in, exits before it reports in, and is rolled back: the previous
// package runs again and says why in the device's logs.

const run = promisify(execFile);

const sha256 = (body: Buffer): string => createHash('sha256').update(body).digest('hex');

type HomeState = {
  current: { version: string } | null;
  previous: { version: string } | null;
  trial: unknown;
  rejected: string[];
};

describe('an agent updating itself', () => {
  let server: TestServer;
  let packageHost: Server;
  let sandbox: NpmSandbox;
  let owner: BalenaUser;
  let fleet: BalenaFleet;
  let service: ServiceLoop | undefined;
  let home: string;
  let brokenSha: string;

  // A package whose agent exits at once: what a bad build looks like to the launcher.
  const brokenPackage = async (dir: string): Promise<Buffer> => {
    const packageDir = path.join(dir, 'package');
    await mkdir(packageDir, { recursive: true });
    await writeFile(
      path.join(packageDir, 'package.json'),
      JSON.stringify({
        name: 'flotilla-agent',
        version: '9.9.9',
        bin: { 'flotilla-agent': 'cli.js' },
      }),
    );
    await writeFile(
      path.join(packageDir, 'cli.js'),
      "process.stderr.write('broken agent: cannot start\\n'); process.exit(1);\n",
    );
    const file = path.join(dir, 'broken.tgz');
    await run('tar', ['-czf', file, '-C', dir, 'package']);
    return readFile(file);
  };

  // A failed wait shows what the agent printed.
  const withOutput = async <T>(work: Promise<T>): Promise<T> => {
    try {
      return await work;
    } catch (error) {
      throw new Error(`${String(error)}\n${service?.output() ?? ''}`);
    }
  };

  const homeState = async (): Promise<HomeState> =>
    JSON.parse(await readFile(path.join(home, 'state.json'), 'utf8')) as HomeState;

  beforeAll(async () => {
    if (!existsSync(defaultAgentPackageFile)) {
      throw new Error(
        'The agent package is not built: run `npm run build` (npm test does) before the contract tests.',
      );
    }
    server = await startTestServer();
    sandbox = await createNpmSandbox('agent-self-update');
    // The broken package comes from another host, named by an absolute URL.
    const broken = await brokenPackage(await sandbox.emptyDir('broken-package'));
    brokenSha = sha256(broken);
    packageHost = createServer((request, response) => {
      if (request.url === '/broken.tgz') response.writeHead(200).end(broken);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => packageHost.listen(0, '127.0.0.1', resolve));
    const address = packageHost.address();
    const hostUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const good = sha256(await readFile(defaultAgentPackageFile));
    await server.db.transaction((tx) =>
      importCatalogue(tx, {
        releases: [
          ['17.2.0', `${agentPackagePath}#sha256=${good}`],
          ['17.3.0', `${hostUrl}/broken.tgz#sha256=${brokenSha}`],
        ].map(([version = '', updaterImage = '']) => ({
          kind: 'supervisor' as const,
          cpuArchitecture: 'aarch64',
          version,
          phase: null,
          knownIssues: null,
          notes: null,
          updaterImage,
          invalidated: false,
        })),
      }),
    );
    owner = await registerBalenaUser(server.url, 'self-update');
    fleet = await createBalenaFleet(owner.sdk, 'self-update');
  });

  afterAll(async () => {
    await service?.stop();
    await sandbox?.close();
    await new Promise((resolve) => packageHost?.close(resolve));
    await server?.close();
  });

  it('swaps in the package a supervisor release names, and rolls back one that does not come back', async () => {
    const prefix = await sandbox.emptyDir('installed');
    await sandbox.run('npm', ['install', '--prefix', prefix, `${server.url}${agentPackagePath}`]);
    const download = await fetch(`${server.url}/download-config`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ appId: fleet.id, deviceType: 'raspberrypi4-64' }),
    });
    expect(download.status).toBe(200);
    home = path.join(sandbox.dir, 'agent-home');
    const config = {
      ...(JSON.parse(await download.text()) as Record<string, unknown>),
      flotilla: {
        containerEngine: 'none',
        // balena-sdk pins supervisor releases only on balenaOS 2.12.0 or newer.
        osVersion: 'balenaOS 6.0.13',
        agentHome: home,
        // The shortest check interval: the device looks up its supervisor release every second.
        supervisorCheckInterval: 1000,
      },
    };
    const configFile = path.join(sandbox.dir, 'config.json');
    await writeFile(configFile, JSON.stringify(config));
    service = startServiceLoop(
      path.join(prefix, 'node_modules/.bin/flotilla-agent'),
      ['--config', configFile, '--log-level', 'debug'],
      { cwd: sandbox.dir, env: sandbox.env },
    );
    const [, uuid = ''] = await service.waitForOutput(/running as device ([0-9a-f]{32})/, 60_000);
    const supervisorOf = () =>
      owner.sdk.models.device.get(uuid, { $select: ['supervisor_version'] });
    await waitUntil('the first report', supervisorOf, (row) => row.supervisor_version === '17.1.0');

    await owner.sdk.models.device.pinToSupervisorRelease(uuid, '17.2.0');
    await withOutput(
      waitUntil(
        'the updated agent to report its new version',
        supervisorOf,
        (row) => row.supervisor_version === '17.2.0',
        { timeoutMs: 60_000 },
      ),
    );
    // The agent asked for the restart (EX_TEMPFAIL) once it had swapped the package in.
    expect(service.exits()).toEqual([75]);
    await service.waitForOutput(/reported in: the update is kept/, 30_000);
    expect(await homeState()).toMatchObject({
      current: { version: '17.2.0' },
      previous: null,
      trial: null,
      rejected: [],
    });
    await waitUntil(
      'the update in the device logs',
      () => owner.sdk.logs.history(uuid),
      (lines) =>
        lines.some(
          (line) => line.message === 'Supervisor updated to 17.2.0 (Flotilla agent package)',
        ),
    );

    await owner.sdk.models.device.pinToSupervisorRelease(uuid, '17.3.0');
    // 17.2.0 swaps the broken package in and exits; the broken one exits before reporting in and
    // the launcher rolls it back; started again, 17.2.0 runs.
    const exits = await service.waitForExits(3, 60_000);
    expect(exits).toEqual([75, 75, 75]);
    await waitUntil(
      'the rollback in the device logs',
      () => owner.sdk.logs.history(uuid),
      (lines) =>
        lines.some(
          (line) =>
            line.message ===
            'Supervisor update to 17.3.0 failed: it exited with code 1 before it reported in; rolled back to 17.2.0',
        ),
      { timeoutMs: 60_000 },
    );
    expect(service.output()).toContain('broken agent: cannot start');
    expect(await homeState()).toMatchObject({
      current: { version: '17.2.0' },
      trial: null,
      rejected: [brokenSha],
    });
    expect((await supervisorOf()).supervisor_version).toBe('17.2.0');
    // The rolled-back package is not tried again: the agent keeps running.
    await service.waitForOutput(
      /Supervisor update to 17\.3\.0 skipped: this package was rolled back before/,
      30_000,
    );
    expect(service.exits()).toHaveLength(3);
    expect(sandbox.registryRequests()).toEqual([]);
  });
});
