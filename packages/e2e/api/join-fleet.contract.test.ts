import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { joinFleet, JoinFleetError } from '@flotilla/agent/join-fleet';
import { loadAgentConfig } from '@flotilla/agent/config';
import { startTestServer, type TestServer } from '@flotilla/server/test-support/test-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BalenaFleet,
  type BalenaUser,
  createBalenaFleet,
  registerBalenaUser,
} from '../support/balena-sdk-setup.js';

// `npm run device`'s first step against the real server: this machine's config.json for a fleet,
// by the fleet's slug and a user's credential.
describe('npm run device: joining a fleet', () => {
  let server: TestServer;
  let owner: BalenaUser;
  let fleet: BalenaFleet;
  let dir: string;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await registerBalenaUser(server.url, 'joiner');
    fleet = await createBalenaFleet(owner.sdk, 'Joined', 'generic-amd64');
    dir = await mkdtemp(join(tmpdir(), 'flotilla-join-'));
  });

  afterAll(async () => {
    await server?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it("writes the fleet's config.json once, with power commands that only log", async () => {
    const configPath = join(dir, 'token', 'config.json');
    const options = { api: server.url, fleet: fleet.slug, configPath, token: owner.token };
    expect(await joinFleet(options)).toBe('created');
    const config = await loadAgentConfig(configPath);
    expect(config).toMatchObject({
      apiEndpoint: server.url,
      applicationId: fleet.id,
      deviceType: 'generic-amd64',
    });
    expect(config.provisioningApiKey).toMatch(/.{16,}/);
    expect(config.host.containerEngine).toBe('auto');
    expect(config.host.rebootCommand.join(' ')).toMatch(/^sh -c echo "reboot requested/);
    const written = await readFile(configPath, 'utf8');
    // A second run keeps the device's file (and identity).
    expect(await joinFleet(options)).toBe('kept');
    expect(await readFile(configPath, 'utf8')).toBe(written);
  });

  it('signs in with an e-mail and password too', async () => {
    const configPath = join(dir, 'password', 'config.json');
    const outcome = await joinFleet({
      api: server.url,
      fleet: fleet.slug.toUpperCase(),
      configPath,
      email: owner.email,
      password: owner.password,
      containerEngine: 'none',
    });
    expect(outcome).toBe('created');
    expect((await loadAgentConfig(configPath)).host.containerEngine).toBe('none');
  });

  it('says what is wrong: no credential, a fleet the account cannot see', async () => {
    const configPath = join(dir, 'refused', 'config.json');
    await expect(joinFleet({ api: server.url, fleet: fleet.slug, configPath })).rejects.toThrow(
      /Give a credential/,
    );
    const other = await registerBalenaUser(server.url, 'stranger');
    const refused = joinFleet({
      api: server.url,
      fleet: fleet.slug,
      configPath,
      token: other.token,
    });
    await expect(refused).rejects.toBeInstanceOf(JoinFleetError);
    await expect(refused).rejects.toThrow(`No fleet ${fleet.slug.toLowerCase()}`);
  });
});
