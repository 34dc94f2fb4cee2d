import type { ActionResult, Hello } from '@flotilla/shared/cloudlink/messages';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from './logger.js';
import { type RealAgent, startRealAgent } from './real-agent.js';
import { FakeApi, json } from './test-support/fake-api.js';

describe('startRealAgent', () => {
  let api: FakeApi;
  let directory: string;
  let agent: RealAgent | null;

  beforeEach(async () => {
    api = await new FakeApi().listen();
    directory = await mkdtemp(path.join(tmpdir(), 'flotilla-agent-'));
    agent = null;
  });
  afterEach(async () => {
    await agent?.stop();
    await api.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('registers, writes its identity into config.json and answers actions without running them', async () => {
    const file = path.join(directory, 'config.json');
    await writeFile(
      file,
      JSON.stringify({
        apiEndpoint: api.url,
        applicationId: 7,
        deviceType: 'generic-amd64',
        apiKey: 'provisioning-key',
        vpnEndpoint: 'kept',
        // Host mode whatever engine this machine has (engine mode: real-device tests).
        flotilla: { containerEngine: 'none' },
      }),
    );
    api.on((request, response) => {
      if (request.path === '/device/register') {
        const body = request.body as { uuid: string; api_key: string };
        return json(response, 201, { id: 77, uuid: body.uuid, api_key: body.api_key });
      }
      if (request.path.endsWith('/state')) return json(response, 200, {}, { etag: '"x"' });
      if (request.path === '/device/v3/state') return json(response, 200, {});
      // The agent checks the chosen device type against its CPU (public device types).
      if (request.path.startsWith('/v7/device_type?')) {
        return json(response, 200, {
          d: [{ slug: 'generic-amd64', is_of__cpu_architecture: [{ slug: 'amd64' }] }],
        });
      }
    });
    const results: ActionResult[] = [];
    let hello: Hello | null = null;
    api.wss.on('connection', (socket) =>
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as Hello | ActionResult;
        if (message.type === 'hello') hello = message;
        else results.push(message);
      }),
    );
    const commands: string[][] = [];
    agent = await startRealAgent({
      configPath: file,
      logger: silentLogger,
      runner: async (command) => {
        commands.push([...command]);
        return { exitCode: 0, stdout: '', stderr: '' };
      },
    });

    const written = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(written).toMatchObject({
      uuid: agent.uuid,
      deviceId: 77,
      vpnEndpoint: 'kept',
      registered_at: expect.any(Number),
    });
    expect(written.deviceApiKey).toEqual(expect.any(String));
    await api.waitFor(() => hello !== null, 'hello');
    expect(hello).toMatchObject({ uuid: agent.uuid });
    expect(api.requests.find((request) => request.path === '/device/register')?.body).toMatchObject(
      {
        supervisor_version: '17.1.0',
        device_type: 'generic-amd64',
      },
    );

    api.sockets[0]?.send(
      JSON.stringify({ type: 'action', id: 'r1', action: 'reboot', params: {} }),
    );
    await api.waitFor(() => commands.length === 1, 'the reboot command');
    expect(commands[0]).toEqual(['systemctl', 'reboot']);
    expect(results[0]).toMatchObject({ id: 'r1', status: 200 });
    expect(agent.agent.phase).toBe('rebooting');
  });

  it('fails clearly on an unusable config', async () => {
    const file = path.join(directory, 'config.json');
    await writeFile(file, JSON.stringify({ apiEndpoint: api.url }));
    await expect(startRealAgent({ configPath: file, logger: silentLogger })).rejects.toThrow(
      /applicationId is required/,
    );
  });
});
