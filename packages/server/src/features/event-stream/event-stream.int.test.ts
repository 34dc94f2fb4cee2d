import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { buildServer } from '../../server.js';
import * as fx from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { waitFor } from '../../test-support/wait-for.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import { openSse, type SseClient } from './sse-test-client.js';

// The live event stream on a listening server: the real outbox, dispatcher (which gives events
// their stream positions) and notifications; a heartbeat short enough to see a revocation.
describe('GET /events/v1/stream', () => {
  let db: Database;
  let app: FastifyInstance;
  let baseUrl: string;
  let watched: fx.FleetFixture;
  let hidden: fx.FleetFixture;
  let memberKey: string;
  let memberActor: number;
  const open: SseClient[] = [];
  const maxReplay = 5;

  const connect = async (key: string, lastEventId?: string): Promise<SseClient> => {
    const client = await openSse(`${baseUrl}/events/v1/stream`, {
      authorization: `Bearer ${key}`,
      ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
    });
    open.push(client);
    return client;
  };
  // What a client received, as "<type>:<variable name>" (every event here is a variable's).
  const names = (client: SseClient): string[] =>
    client
      .messages()
      .filter((message) => message.event === 'message')
      .map((message) => {
        const body = JSON.parse(message.data) as { type: string; data: { name?: string } };
        return `${body.type}:${body.data.name ?? ''}`;
      });
  const setVar = (fleet: fx.FleetFixture, name: string) =>
    fx.setFleetEnvVar(db, fleet.id, name, 'value');
  // Every event committed so far has its stream position (the dispatcher fanned it out).
  const allPositioned = () =>
    waitFor('the fan-out', async () => {
      const { rows } = await db.query(
        `SELECT 1 FROM "event_outbox" WHERE "stream_position" IS NULL LIMIT 1`,
      );
      return rows.length === 0;
    });

  beforeAll(async () => {
    db = await createTestDatabase();
    app = buildServer(createTestContext(db), {
      eventStream: { heartbeatMs: 200, maxPerUser: 3, maxReplay },
    });
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    const organization = await fx.createOrganization(db, 'Streaming');
    watched = await fx.createFleet(db, organization, 'watched');
    hidden = await fx.createFleet(db, organization, 'hidden');
    const member = await fx.createUser(db, 'streamer');
    await fx.addOrganizationMember(db, member.userId, organization, 'member');
    await fx.addFleetMember(db, member.userId, watched.id, 'observer');
    memberActor = member.actorId;
    memberKey = await createApiKey(db, member.actorId, { name: 'stream' });
    // The set-up's own events (memberships) are in the stream before any test connects.
    await allPositioned();
  });
  // A failed test leaves no stream open to count against the next one's limit.
  afterEach(async () => {
    const clients = open.splice(0);
    for (const client of clients) client.close();
    await Promise.all(clients.map((client) => client.ended));
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  it('answers 401 without credentials', async () => {
    const response = await app.inject({ url: '/events/v1/stream' });
    expect(response.statusCode).toBe(401);
  });

  it("streams a member's fleet events live and none of a fleet they may not read", async () => {
    const client = await connect(memberKey);
    expect(client.status).toBe(200);
    await setVar(hidden, 'SECRET_ONE');
    await setVar(watched, 'VISIBLE_ONE');
    // Sent in commit order: once the later event arrived, the earlier one would have too.
    await waitFor('the visible event', () => names(client).length === 1);
    expect(names(client)).toEqual(['variable.changed:VISIBLE_ONE']);
    client.close();
  });

  it('resumes after a dropped connection with Last-Event-ID: nothing lost, nothing twice', async () => {
    const first = await connect(memberKey);
    await setVar(watched, 'R1');
    await setVar(watched, 'R2');
    await waitFor('two events', () => names(first).length === 2);
    const lastId = first.messages().at(-1)?.id;
    first.close();
    await first.ended;
    await setVar(watched, 'R3');
    await setVar(hidden, 'R_HIDDEN');
    await setVar(watched, 'R4');
    await allPositioned();

    const second = await connect(memberKey, lastId);
    await waitFor('the missed events', () => names(second).length === 2);
    await setVar(watched, 'R5');
    await waitFor('the live event', () => names(second).length === 3);
    expect(names(second)).toEqual([
      'variable.changed:R3',
      'variable.changed:R4',
      'variable.changed:R5',
    ]);
    // The ids go up: a client resuming from any of them gets the rest once.
    const ids = second.messages().map((message) => Number(message.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    second.close();
  });

  it('tells a client that missed too much, or names an unknown id, to refetch', async () => {
    const first = await connect(memberKey);
    await setVar(watched, 'BEFORE');
    await waitFor('one event', () => names(first).length === 1);
    const lastId = first.messages().at(-1)?.id;
    first.close();
    for (let index = 0; index <= maxReplay; index += 1) await setVar(watched, `MISSED_${index}`);
    await allPositioned();
    const behind = await connect(memberKey, lastId);
    await waitFor('the reset', () => behind.messages().length === 1);
    expect(behind.messages()[0]?.event).toBe('reset');
    await setVar(watched, 'AFTER_RESET');
    await waitFor('the next event', () => names(behind).length === 1);
    expect(names(behind)).toEqual(['variable.changed:AFTER_RESET']);
    behind.close();

    const unknown = await connect(memberKey, 'not-an-id');
    await waitFor('the reset', () => unknown.messages().length === 1);
    expect(unknown.messages()[0]?.event).toBe('reset');
    unknown.close();
  });

  it('refuses more streams per user than allowed', async () => {
    const clients = [await connect(memberKey), await connect(memberKey), await connect(memberKey)];
    expect(clients.map((client) => client.status)).toEqual([200, 200, 200]);
    const refused = await connect(memberKey);
    expect(refused.status).toBe(429);
    for (const client of clients) client.close();
    await Promise.all(clients.map((client) => client.ended));
  });

  it('ends the stream when its credential is revoked', async () => {
    const otherKey = await createApiKey(db, memberActor, { name: 'revoked soon' });
    const client = await connect(otherKey);
    expect(client.status).toBe(200);
    await db.query(`DELETE FROM "api_key" WHERE "name" = 'revoked soon'`);
    await client.ended;
    const again = await connect(otherKey);
    expect(again.status).toBe(401);
  });
});
