import { describe, expect, expectTypeOf, it } from 'vitest';
import { FlotillaApiError } from './errors.js';
import { createTestClient } from './test-support/test-client.js';

const rows = (from: number, count: number) =>
  Array.from({ length: count }, (_, index) => ({ id: from + index }));

describe('pine', () => {
  it('sends several reads as one POST /v7/$batch and types each answer by its query', async () => {
    const { client, server } = createTestClient('api-key');
    server.on('POST', '/v7/$batch', (call) => {
      const { requests } = call.body as { requests: { id: string; method: string; url: string }[] };
      return {
        json: {
          responses: requests.map((request) => ({
            id: request.id,
            status: 200,
            body: { d: [{ id: 1, owns__device: request.url.includes('operational') ? 4 : 2 }] },
          })),
        },
      };
    });
    const counts = await client.pine.getBatch(
      ['operational', 'updating'].map((status) => ({
        resource: 'application' as const,
        options: {
          $select: ['id'],
          $expand: { owns__device: { $count: { $filter: { overall_status: status } } } },
        },
      })),
    );
    expectTypeOf(counts).toEqualTypeOf<({ id: number } & { owns__device: number })[][]>();
    expect(counts).toEqual([[{ id: 1, owns__device: 4 }], [{ id: 1, owns__device: 2 }]]);
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]?.headers.get('authorization')).toBe('Bearer api-key');
    expect(server.calls[0]?.body).toEqual({
      requests: [
        {
          id: '0',
          method: 'GET',
          url: '/v7/application?$select=id&$expand=owns__device/$count($filter=overall_status%20eq%20%27operational%27)',
        },
        {
          id: '1',
          method: 'GET',
          url: '/v7/application?$select=id&$expand=owns__device/$count($filter=overall_status%20eq%20%27updating%27)',
        },
      ],
    });
  });

  it("throws a batched read's own failure as its GET would", async () => {
    const { client, server } = createTestClient('api-key');
    server.on('POST', '/v7/$batch', {
      json: {
        responses: [
          { id: '0', status: 200, body: { d: [] } },
          { id: '1', status: 400, body: "Unknown field 'nope'" },
        ],
      },
    });
    const failure = client.pine.getBatch([
      { resource: 'device', options: { $select: ['id'] } },
      { resource: 'device', options: { $select: ['id'] } },
    ]);
    await expect(failure).rejects.toBeInstanceOf(FlotillaApiError);
    await expect(failure).rejects.toMatchObject({ status: 400, message: "Unknown field 'nope'" });
    // An answer that is not a batch's is an error, not rows.
    server.on('POST', '/v7/$batch', { json: { responses: [] } });
    await expect(
      client.pine.getBatch([{ resource: 'device', options: { $select: ['id'] } }]),
    ).rejects.toThrow('something else');
  });

  it('sends v7 queries through the client request, with the token', async () => {
    const { client, server } = createTestClient('api-key');
    server.on('GET', '/v7/application', {
      json: { d: [{ id: 1, app_name: 'fleet', organization: { __id: 3 } }] },
    });
    const apps = await client.pine.get({
      resource: 'application',
      options: { $select: ['id', 'app_name', 'organization'], $filter: { app_name: "O'Brien" } },
    });
    expect(apps).toEqual([{ id: 1, app_name: 'fleet', organization: { __id: 3 } }]);
    const [call] = server.calls;
    expect(call?.headers.get('authorization')).toBe('Bearer api-key');
    expect(call?.headers.get('x-balena-client')).toBe('flotilla-console/test');
    // What arrives on the socket (wire contract, section 3: query encoding).
    expect(call?.target).toBe(
      '/v7/application?$select=id,app_name,organization&$filter=app_name%20eq%20%27O%27%27Brien%27',
    );
  });

  it('types each answer by the query: $select, $expand, $count, by id', async () => {
    const { client, server } = createTestClient('api-key');
    server.on('GET', '/v7/device', { json: { d: [] } });
    server.on('GET', /^\/v7\/application\(1\)$/, { json: { d: [] } });
    server.on('GET', '/v7/device/$count', { json: { d: 0 } });
    const devices = await client.pine.get({
      resource: 'device',
      options: {
        $select: ['id', 'belongs_to__application'],
        $expand: { is_of__device_type: { $select: ['slug'] }, device_tag: { $count: {} } },
      },
    });
    expectTypeOf(devices).toEqualTypeOf<
      ({ id: number; belongs_to__application: { __id: number } } & {
        is_of__device_type: { slug: string }[];
        device_tag: number;
      })[]
    >();
    const application = await client.pine.get({
      resource: 'application',
      id: 1,
      options: { $select: ['app_name'] },
    });
    expectTypeOf(application).toEqualTypeOf<{ app_name: string } | undefined>();
    const count = await client.pine.get({ resource: 'device', options: { $count: {} } });
    expectTypeOf(count).toEqualTypeOf<number>();
    expect([devices, application, count]).toEqual([[], undefined, 0]);
  });

  it('gets one row by id and writes with PATCH, POST and DELETE', async () => {
    const { client, server } = createTestClient('api-key');
    server.on('GET', /^\/v7\/device\(5\)$/, { json: { d: [{ id: 5, device_name: 'pi' }] } });
    server.on('PATCH', /^\/v7\/device\(5\)$/, { status: 200 });
    server.on('POST', '/v7/device_tag', { status: 201, json: { id: 8 } });
    server.on('DELETE', /^\/v7\/device_tag\(8\)$/, { status: 200 });

    const device = await client.pine.get({ resource: 'device', id: 5 });
    expect(device?.device_name).toBe('pi');
    await client.pine.patch({ resource: 'device', id: 5, body: { device_name: 'pi 2' } });
    const tag = await client.pine.post({
      resource: 'device_tag',
      body: { device: 5, tag_key: 'k', value: 'v' },
    });
    expect(tag).toEqual({ id: 8 });
    await client.pine.delete({ resource: 'device_tag', id: 8 });
    expect(server.calls.map((call) => call.method)).toEqual(['GET', 'PATCH', 'POST', 'DELETE']);
    expect(server.calls[1]?.body).toEqual({ device_name: 'pi 2' });
  });

  it('raises API errors as FlotillaApiError', async () => {
    const { client, server } = createTestClient('api-key');
    server.on('POST', '/v7/device_tag', { status: 409, text: 'Unique key constraint violated' });
    const error = await client.pine
      .post({ resource: 'device_tag', body: { device: 5, tag_key: 'k', value: 'v' } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FlotillaApiError);
    expect((error as FlotillaApiError).code).toBe('conflict');
  });

  it('retries rate-limited calls after the notice', async () => {
    const { client, server, clock } = createTestClient('api-key');
    let attempts = 0;
    server.on('GET', '/v7/organization', () => {
      attempts += 1;
      return attempts === 1 ? { status: 429 } : { json: { d: [] } };
    });
    let result: unknown;
    void client.pine.get({ resource: 'organization' }).then((value) => {
      result = value;
    });
    await clock.advance(5000);
    expect(result).toEqual([]);
    expect(attempts).toBe(2);
  });

  it('pages list queries 350 rows at a time until a short page', async () => {
    const { client, server } = createTestClient('api-key');
    server.on('GET', '/v7/device', (call) => {
      const skip = Number(call.url.searchParams.get('$skip'));
      return { json: { d: skip < 700 ? rows(skip, 350) : rows(skip, 12) } };
    });
    const devices = await client.pine.getAllPaged({
      resource: 'device',
      options: { $select: ['id'], $filter: { is_online: true } },
    });
    expect(devices).toHaveLength(712);
    expect(devices.at(-1)).toEqual({ id: 711 });
    const queries = server.calls.map((call) => Object.fromEntries(call.url.searchParams));
    expect(queries.map((query) => [query.$top, query.$skip])).toEqual([
      ['350', '0'],
      ['350', '350'],
      ['350', '700'],
    ]);
    expect(queries[0]).toMatchObject({
      $orderby: 'id asc',
      $select: 'id',
      $filter: 'is_online eq true',
    });
  });

  it('keeps the order of the query and stops at an empty page', async () => {
    const { client, server } = createTestClient('api-key');
    server.on('GET', '/v7/release', (call) => ({
      json: { d: Number(call.url.searchParams.get('$skip')) === 0 ? rows(0, 350) : [] },
    }));
    const releases = await client.pine.getAllPaged({
      resource: 'release',
      options: { $orderby: { created_at: 'desc' } },
    });
    expect(releases).toHaveLength(350);
    expect(server.calls).toHaveLength(2);
    expect(server.calls[0]?.url.searchParams.get('$orderby')).toBe('created_at desc');
  });

  it('cancels through passthrough.signal', async () => {
    const { client, server } = createTestClient('api-key');
    server.on('GET', '/v7/device', { json: { d: [] } });
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    const error = await client.pine
      .get({ resource: 'device', passthrough: { signal: controller.signal } })
      .catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('cancelled');
    expect(server.calls).toHaveLength(0);
  });
});
