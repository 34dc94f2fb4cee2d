import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import {
  createSupportWorld,
  multipartFile,
  type SupportWorld,
} from '../../test-support/support-world.js';

// The Zendesk adapter against a STRICT FAKE of Zendesk's REST API v2 (we cannot run Zendesk
// here): it answers only the three calls the adapter makes, with Zendesk's documented shapes,
// checks their authentication and bodies, and fails the test on any other request.

type Seen = {
  method: string;
  url: string;
  authorization: string;
  contentType: string;
  body: Buffer;
};

const readBody = async (request: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks);
};

const expectedAuthorization = `Basic ${Buffer.from('desk@example.com/token:secret-token').toString('base64')}`;

let db: Database;
let world: SupportWorld;
let zendesk: Server;
const seen: Seen[] = [];
const unexpected: string[] = [];
let organization: number;
let member: string;

beforeAll(async () => {
  zendesk = createServer((request, response) => {
    void readBody(request).then((body) => {
      const call: Seen = {
        method: request.method ?? '',
        url: request.url ?? '',
        authorization: request.headers.authorization ?? '',
        contentType: request.headers['content-type'] ?? '',
        body,
      };
      seen.push(call);
      const json = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      if (call.authorization !== expectedAuthorization)
        return json(401, { error: "Couldn't authenticate you" });
      if (call.method === 'GET' && call.url === '/api/v2/ticket_fields.json') {
        return json(200, {
          ticket_fields: [
            { id: 1, type: 'subject', title: 'Subject', required_in_portal: true, active: true },
            {
              id: 360001,
              type: 'tagger',
              title: 'Product area',
              description: 'Where it hurts',
              required_in_portal: true,
              active: true,
              custom_field_options: [{ name: 'Devices', value: 'devices' }],
            },
            { id: 360002, type: 'text', title: 'Retired', active: false },
          ],
        });
      }
      if (call.method === 'POST' && call.url === '/api/v2/uploads.json?filename=trace.txt') {
        return json(201, {
          upload: {
            token: 'zdTok3n',
            attachment: {
              id: 77,
              file_name: 'trace.txt',
              content_type: 'text/plain',
              size: call.body.length,
              content_url: 'https://acme.zendesk.com/attachments/token/zdTok3n/?name=trace.txt',
            },
          },
        });
      }
      if (call.method === 'POST' && call.url === '/api/v2/tickets.json') {
        return json(201, {
          ticket: {
            id: 4242,
            subject: 'Zendesk please',
            status: 'new',
            priority: 'normal',
            created_at: '2026-01-02T03:04:05Z',
          },
        });
      }
      unexpected.push(`${call.method} ${call.url}`);
      return json(599, { error: 'unexpected call' });
    });
  });
  await new Promise<void>((resolve) => zendesk.listen(0, '127.0.0.1', resolve));
  const { port } = zendesk.address() as AddressInfo;
  db = await createTestDatabase();
  world = await createSupportWorld(db, {
    config: {
      helpDesk: {
        kind: 'zendesk',
        url: `http://127.0.0.1:${port}`,
        email: 'desk@example.com',
        apiToken: 'secret-token',
        timeoutMs: 10_000,
      },
    },
  });
  organization = await world.organization('acme');
  member = await world.signIn('alice', { memberOf: organization });
});
afterAll(async () => {
  await world.app.close();
  await db.close();
  await new Promise<void>((resolve) => zendesk.close(() => resolve()));
  expect(unexpected).toEqual([]);
});

const auth = () => ({ authorization: `Bearer ${member}` });

describe('the Zendesk adapter', () => {
  it('answers the ticket fields Zendesk defines, active custom fields only', async () => {
    const response = await world.app.inject({
      method: 'GET',
      url: `/zendesk/v1/${organization}/ticket-fields`,
      headers: auth(),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      ticket_fields: [
        {
          id: 360001,
          type: 'tagger',
          title: 'Product area',
          description: 'Where it hurts',
          required: true,
          active: true,
          custom_field_options: [{ name: 'Devices', value: 'devices' }],
        },
      ],
    });
  });

  it('forwards an upload as its bytes and answers Zendesk’s upload token', async () => {
    const form = await multipartFile('file', 'trace.txt', 'text/plain', Buffer.from('trace!'));
    const response = await world.app.inject({
      method: 'POST',
      url: `/zendesk/v1/${organization}/upload-attachment`,
      headers: { ...auth(), 'content-type': form.contentType },
      payload: form.payload,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json<{ upload: { token: string } }>().upload.token).toBe('zdTok3n');
    const call = seen.find((entry) => entry.url.startsWith('/api/v2/uploads.json'));
    expect(call?.contentType).toBe('text/plain');
    expect(call?.body.toString()).toBe('trace!');
  });

  it('forwards a ticket with its requester, organization tag, ccs, fields and uploads', async () => {
    const response = await world.app.inject({
      method: 'POST',
      url: `/zendesk/v1/${organization}/submit-ticket`,
      headers: auth(),
      payload: {
        subject: 'Zendesk please',
        comment: { body: 'Forward me', uploads: ['zdTok3n'] },
        email_ccs: [{ user_email: 'ops@acme.example', action: 'put' }],
        custom_fields: [{ id: 360001, value: 'devices' }],
      },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      ticket: {
        id: 4242,
        subject: 'Zendesk please',
        status: 'new',
        priority: 'normal',
        created_at: '2026-01-02T03:04:05Z',
      },
    });
    const call = seen.find((entry) => entry.url === '/api/v2/tickets.json');
    expect(JSON.parse(call?.body.toString() ?? '{}')).toEqual({
      ticket: {
        subject: 'Zendesk please',
        comment: { body: 'Forward me', uploads: ['zdTok3n'] },
        requester: { name: 'alice', email: 'alice@example.com' },
        email_ccs: [{ user_email: 'ops@acme.example', action: 'put' }],
        custom_fields: [{ id: 360001, value: 'devices' }],
        priority: 'normal',
        tags: [`flotilla_organization_${organization}`],
      },
    });
    // Nothing is kept locally: the ticket lives in Zendesk.
    const local = await db.query('SELECT 1 FROM "support_ticket"');
    expect(local.rows).toEqual([]);
  });
});
