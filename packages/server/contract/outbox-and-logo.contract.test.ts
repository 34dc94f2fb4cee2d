import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import {
  createOrganization,
  newSdk,
  registerUser,
  type RegisteredUser,
} from './contract-helpers.js';

type Outbox = {
  transport: string;
  total: number;
  messages: { to: string; subject: string; text: string; links: string[]; status: string }[];
};

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

// A TCP port nothing listens on (an SMTP server that is down).
const closedPort = async (): Promise<number> => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
};

describe('the built-in outbox (no SMTP) and organization logos', () => {
  let server: TestServer;
  let owner: RegisteredUser;
  let adminToken: string;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await registerUser(server.url, 'outboxowner');
    const admin = await registerUser(server.url, 'platformadmin');
    const { id } = await admin.sdk.auth.getUserInfo();
    await server.db.query(
      `INSERT INTO "user_platform_role" ("user", "role") VALUES ($1, 'balena_admin')`,
      [id],
    );
    // A new session carries the platform role.
    const sdk = newSdk(server.url);
    await sdk.auth.login({ email: admin.email, password: admin.password });
    adminToken = (await sdk.auth.getToken()) ?? '';
  });

  afterAll(async () => {
    await server?.close();
  });

  const outbox = async (token: string): Promise<Response> =>
    fetch(`${server.url}/admin/v1/mail?limit=10`, { headers: bearer(token) });

  it('keeps mail in the outbox for platform administrators, with its links; others are refused', async () => {
    const organization = await createOrganization(owner.sdk, 'Outboxed');
    const email = `outbox-${Date.now()}@example.com`;
    await owner.sdk.models.organization.invite.create(organization.handle, { invitee: email });
    await expect
      .poll(async () => {
        const body = (await (await outbox(adminToken)).json()) as Outbox;
        return body.messages.find((message) => message.to === email)?.status;
      })
      .toBe('stored');
    const body = (await (await outbox(adminToken)).json()) as Outbox;
    expect(body.transport).toBe('outbox');
    const message = body.messages.find((row) => row.to === email);
    expect(message?.links).toHaveLength(1);
    expect(message?.links[0]).toMatch(/\/organization\/invitation\/[\w.-]+$/);
    expect(message?.text).toContain(message?.links[0]);
    expect((await outbox(owner.token)).status).toBe(401);
    expect((await fetch(`${server.url}/admin/v1/mail`)).status).toBe(401);
  });

  it('a message SMTP cannot take stays queued for a retry, with the error', async () => {
    const down = await startTestServer({
      config: { smtpUrl: `smtp://127.0.0.1:${await closedPort()}` },
    });
    try {
      const user = await registerUser(down.url, 'smtpdown');
      const organization = await createOrganization(user.sdk, 'Down');
      const invitee = `down-${Date.now()}@example.com`;
      await user.sdk.models.organization.invite.create(organization.handle, { invitee });
      // The invitation (with SMTP, the sign-up's verification mail is queued too).
      await expect
        .poll(async () => {
          const { rows } = await down.db.query<{ attempts: number; status: string }>(
            'SELECT "attempts", "status" FROM "mail_message" WHERE "recipient" = $1',
            [invitee],
          );
          return rows;
        })
        .toEqual([{ attempts: 1, status: 'queued' }]);
      const { rows } = await down.db.query<{ last_error: string | null }>(
        'SELECT "last_error" FROM "mail_message" WHERE "recipient" = $1',
        [invitee],
      );
      expect(rows[0]?.last_error).toMatch(/ECONNREFUSED|connect/i);
    } finally {
      await down.close();
    }
  });

  describe('logos', () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(64, 1),
    ]);
    const put = (id: number, body: Buffer, token: string, type = 'image/png') =>
      fetch(`${server.url}/org/v1/organization/${id}/logo`, {
        method: 'PUT',
        headers: { ...bearer(token), 'content-type': type },
        body,
      });

    it('accepts png or jpeg up to 1,000,000 bytes, judged by content, and serves it', async () => {
      const organization = await createOrganization(owner.sdk, 'Logos');
      const stored = await put(organization.id, png, owner.token, 'application/octet-stream');
      expect(stored.status, await stored.clone().text()).toBe(200);
      const read = await owner.sdk.models.organization.get(organization.id, {
        $select: ['logo_image'],
      });
      const logo = read.logo_image as { href: string; content_type: string; size: number } | null;
      expect(logo).toMatchObject({ content_type: 'image/png', size: png.length });
      const served = await fetch(`${server.url}${logo?.href ?? ''}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await served.arrayBuffer())).toEqual(png);

      const gif = await put(organization.id, Buffer.from('GIF89a....'), owner.token);
      expect(gif.status).toBe(400);
      expect(await gif.text()).toBe('The logo must be a PNG or JPEG image');
      const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(999_997)]);
      expect((await put(organization.id, jpeg, owner.token, 'image/jpeg')).status).toBe(400);
      const fits = jpeg.subarray(0, 1_000_000);
      expect((await put(organization.id, fits, owner.token, 'image/jpeg')).status).toBe(200);

      const stranger = await registerUser(server.url, 'logostranger');
      expect((await put(organization.id, png, stranger.token)).status).toBe(401);
      const removed = await fetch(`${server.url}/org/v1/organization/${organization.id}/logo`, {
        method: 'DELETE',
        headers: bearer(owner.token),
      });
      expect(removed.status).toBe(200);
      const after = await owner.sdk.models.organization.get(organization.id, {
        $select: ['logo_image'],
      });
      expect(after.logo_image).toBeNull();
    });
  });
});
