import { existsSync } from 'node:fs';
import { readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { agentNodeFlags } from '@flotilla/agent/node-flags';
import { defaultAgentPackageFile } from '@flotilla/server/features/agent-package/register-agent-package';
import {
  agentInstallCommand,
  agentNodeVersion,
  agentPackagePath,
} from '@flotilla/shared/agent/agent-package';
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

// The first minutes of a real device: the command the Add-device dialog shows, run in an empty
// directory with a fresh npm cache and no npm registry, installs the agent from the server
// alone; with the fleet's config.json the agent registers and connects its cloudlink.
describe('installing the agent from the server', () => {
  let server: TestServer;
  let sandbox: NpmSandbox;
  let owner: BalenaUser;
  let fleet: BalenaFleet;
  let packageUrl: string;
  // The command the Add-device dialog shows, as argv: npx --yes <url> --config config.json.
  let command: string[];

  beforeAll(async () => {
    if (!existsSync(defaultAgentPackageFile)) {
      throw new Error(
        'The agent package is not built: run `npm run build` (npm test does) before the contract tests.',
      );
    }
    server = await startTestServer();
    sandbox = await createNpmSandbox('agent-install');
    owner = await registerBalenaUser(server.url, 'agent-install');
    fleet = await createBalenaFleet(owner.sdk, 'agent-install');
    packageUrl = `${server.url}${agentPackagePath}`;
    command = agentInstallCommand(server.url).split(' ');
  });

  afterAll(async () => {
    await sandbox?.close();
    await server?.close();
  });

  it('serves the package as a gzip file that npm revalidates', async () => {
    const response = await fetch(packageUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/gzip');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(
      await readFile(defaultAgentPackageFile),
    );
  });

  it('runs with npx from the server URL alone, without the npm registry', async () => {
    expect(command.slice(0, 3)).toEqual(['npx', '--yes', packageUrl]);
    const version = await sandbox.run('npx', ['--yes', packageUrl, '--version']);
    const manifest = JSON.parse(
      await readFile(new URL('../../agent/package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    expect(version.trim()).toBe(manifest.version);
    const help = await sandbox.run('npx', ['--yes', packageUrl, '--help']);
    expect(help).toContain('flotilla-agent --config <config.json>');
    expect(sandbox.registryRequests()).toEqual([]);
  });

  it('installs with npm install into an empty directory: one package, no dependencies', async () => {
    // Its own directory, so that the npx runs below cannot pick this installation up.
    const prefix = await sandbox.emptyDir('npm-install');
    await sandbox.run('npm', ['install', '--prefix', prefix, packageUrl]);
    const installed = JSON.parse(
      await readFile(path.join(prefix, 'node_modules/flotilla-agent/package.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(installed).toMatchObject({
      name: 'flotilla-agent',
      bin: { 'flotilla-agent': 'cli.js' },
      engines: { node: `>=${agentNodeVersion}` },
    });
    expect(installed).not.toHaveProperty('dependencies');
    const help = await sandbox.run(path.join(prefix, 'node_modules/.bin/flotilla-agent'), [
      '--help',
    ]);
    expect(help).toContain('--simulate');
    expect(sandbox.registryRequests()).toEqual([]);
  });

  it('joins the fleet with the downloaded config.json, as the Add-device dialog says', async () => {
    const download = await fetch(`${server.url}/download-config`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ appId: fleet.id, deviceType: 'raspberrypi4-64' }),
    });
    expect(download.status).toBe(200);
    const configFile = path.join(sandbox.dir, 'config.json');
    await writeFile(configFile, await download.text());

    const [program = 'npx', ...args] = command;
    const agent = sandbox.start(program, args);
    const [, uuid] = await agent.waitFor(/running as device ([0-9a-f]{32})/, 60_000);
    if (uuid === undefined) throw new Error('no device uuid in the agent output');
    const device = await waitUntil(
      'the installed agent to connect its cloudlink',
      () =>
        owner.sdk.models.device.get(uuid, {
          $select: ['uuid', 'is_connected_to_vpn'],
          $expand: { belongs_to__application: { $select: ['id'] } },
        }),
      (row) => row.is_connected_to_vpn,
    );
    expect(device.belongs_to__application[0]?.id).toBe(fleet.id);
    // The package's launcher line ran Node with the agent's flags, in one process (npx runs
    // the package's bin by its link's name).
    const agentCommands: string[] = [];
    for (const entry of await readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const cwd = await readlink(`/proc/${entry}/cwd`).catch(() => '');
      const commandLine = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
      if (cwd === sandbox.dir && commandLine.includes('--config')) {
        agentCommands.push(commandLine.split('\0').join(' ').trim());
      }
    }
    const launched = new RegExp(`^node ${agentNodeFlags.join(' ')} \\S+ --config config\\.json$`);
    expect(
      agentCommands.filter((line) => launched.test(line)),
      agentCommands.join('\n'),
    ).toHaveLength(1);
    // An action over the cloudlink reaches the installed agent, which answers it and logs it
    // through its log stream.
    await owner.sdk.models.device.identify(uuid);
    await waitUntil(
      'the identify line in the device logs',
      () => owner.sdk.logs.history(uuid),
      (lines) => lines.some((line) => line.message === 'Identify: blink requested'),
    );
    // The agent wrote its identity into config.json.
    const written = JSON.parse(await readFile(configFile, 'utf8')) as { uuid?: string };
    expect(written.uuid).toBe(uuid);
    await agent.stop();
    expect(sandbox.registryRequests()).toEqual([]);
  });
});
