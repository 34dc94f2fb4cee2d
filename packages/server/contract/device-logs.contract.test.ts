import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import {
  deviceTypeSlug,
  registerUser,
  type RegisteredUser,
  uniqueSuffix,
} from './contract-helpers.js';

type LogLine = { message: string; isSystem?: boolean; isStdErr?: boolean; timestamp: number };

// balena-sdk's logs.history and logs.subscribe against logs a device uploaded.
describe('device logs through the balena-sdk', () => {
  let server: TestServer;
  let owner: RegisteredUser;
  let uuid: string;
  let deviceKey: string;

  const upload = async (lines: LogLine[]): Promise<void> => {
    const response = await fetch(`${server.url}/device/v2/${uuid}/logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${deviceKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(lines),
    });
    expect(response.status).toBeLessThan(300);
  };

  beforeAll(async () => {
    server = await startTestServer();
    owner = await registerUser(server.url, 'logs');
    const organizations = await owner.sdk.models.organization.getAll({ $select: ['id'] });
    const fleet = await owner.sdk.models.application.create({
      name: `logs${uniqueSuffix()}`,
      deviceType: deviceTypeSlug,
      organization: organizations[0]?.id ?? 0,
    });
    uuid = owner.sdk.models.device.generateUniqueKey();
    const registered = await owner.sdk.models.device.register(fleet.id, uuid);
    deviceKey = registered.api_key;
  });
  afterAll(() => server.close());

  it('returns the history oldest first with balena’s fields', async () => {
    const now = Date.now();
    await upload([
      { message: 'booting', isSystem: true, timestamp: now - 2000 },
      { message: 'service started', timestamp: now - 1000 },
      { message: 'disk almost full', isStdErr: true, timestamp: now },
    ]);
    const history = await owner.sdk.logs.history(uuid);
    expect(history.map((line) => line.message)).toEqual([
      'booting',
      'service started',
      'disk almost full',
    ]);
    expect(history[0]).toMatchObject({ isSystem: true, isStdErr: false });
    expect(history[2]).toMatchObject({ isStdErr: true });
    const lastTwo = await owner.sdk.logs.history(uuid, { count: 2 });
    expect(lastTwo.map((line) => line.message)).toEqual(['service started', 'disk almost full']);
  });

  it('streams new lines to a subscriber', async () => {
    const subscription = await owner.sdk.logs.subscribe(uuid, { count: 0 });
    const received: string[] = [];
    const arrived = new Promise<void>((resolve) => {
      subscription.on('line', (line: { message: string }) => {
        received.push(line.message);
        if (line.message === 'live line') resolve();
      });
    });
    // Only a line that arrives after the subscription is live (count=0 shows no history), and
    // nothing tells when the SDK's request got there: the device writes until one comes through.
    let writing = true;
    void arrived.then(() => (writing = false));
    while (writing) {
      await upload([{ message: 'live line', timestamp: Date.now() }]);
      await Promise.race([arrived, new Promise((resolve) => setTimeout(resolve, 300))]);
    }
    subscription.unsubscribe();
    expect(received).toContain('live line');
  });

  it('shows another user nothing', async () => {
    const stranger = await registerUser(server.url, 'stranger');
    await expect(stranger.sdk.logs.history(uuid)).rejects.toThrow();
  });
});
