import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fx from '../../test-support/fixtures.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import { createPlatformAdministrator } from '../users/admin-recovery.js';

// The operator's view in the server log at info: logins, failed logins and device registrations,
// with no password or key in them.
describe('the operator log', () => {
  let server: TestServer;
  const lines: string[] = [];
  const logged = (message: string, from: number): Record<string, unknown>[] =>
    lines
      .slice(from)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === message);

  beforeAll(async () => {
    server = await startTestServer({
      config: { logLevel: 'info' },
      logStream: { write: (line) => void lines.push(line) },
    });
  });
  afterAll(() => server.close());

  const login = (username: string, password: string) =>
    server.app.inject({ method: 'POST', url: '/login_', payload: { username, password } });

  it('logs logins and failed logins with the user id and address, never the typed name', async () => {
    const admin = await createPlatformAdministrator(server.db, {
      email: 'logged@example.com',
      password: 'right-password-1',
    });
    const { rows } = await server.db.query<{ id: number }>(
      'SELECT "id" FROM "user" WHERE "username" = $1',
      [admin.username],
    );
    const userId = rows[0]?.id;
    const from = lines.length;
    expect((await login('logged@example.com', 'wrong-password-1')).statusCode).toBe(401);
    expect((await login('my-secret-typed-here', 'x')).statusCode).toBe(401);
    expect((await login('logged@example.com', 'right-password-1')).statusCode).toBe(200);
    expect(logged('login failed', from)).toEqual([
      expect.objectContaining({ level: 30, userId, ip: '127.0.0.1' }),
      expect.objectContaining({ level: 30, userId: null }),
    ]);
    expect(logged('login', from)).toEqual([expect.objectContaining({ level: 30, userId })]);
    const written = lines.slice(from).join('\n');
    expect(written).not.toContain('my-secret-typed-here');
    expect(written).not.toContain('right-password-1');
  });

  it('logs each device registration with its uuid and fleet, not its key', async () => {
    const organization = await fx.createOrganization(server.db, 'Loggers');
    const fleet = await fx.createFleet(server.db, organization, 'Logged', {
      deviceType: 'raspberrypi4-64',
    });
    const key = await createApiKey(server.db, fleet.actorId, { name: 'provisioning' });
    const uuid = randomBytes(16).toString('hex');
    const from = lines.length;
    const response = await server.app.inject({
      method: 'POST',
      url: '/device/register',
      headers: { authorization: `Bearer ${key}` },
      payload: { application: fleet.id, uuid, device_type: 'raspberrypi4-64' },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(logged('device registered', from)).toEqual([
      expect.objectContaining({
        level: 30,
        device: uuid,
        fleetId: fleet.id,
        deviceType: 'raspberrypi4-64',
        by: 'application',
      }),
    ]);
    const deviceKey = response.json<{ api_key: string }>().api_key;
    expect(lines.slice(from).join('\n')).not.toContain(deviceKey);
  });
});
