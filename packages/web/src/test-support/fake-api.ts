import { createFlotillaClient, type FlotillaClient } from '@flotilla/sdk/create-client';
import { memoryTokenStorage } from '@flotilla/sdk/token-storage';
import type { StatusAnswer } from '@flotilla/shared/status/status';
import { afterEach } from 'vitest';
import {
  answerRead,
  type FakeData,
  FakeApiError,
  type FakeRow,
  writeTarget,
} from './fake-odata.js';

// The real SDK against a strict fake API: /v7 reads are evaluated on fixture rows (fake-odata.ts),
// writes are recorded and applied, other paths answer only when a test registers them. Anything
// the fake does not understand answers 400 and fails the test (see the afterEach below), so a
// test never passes on an answer the real server would not give.

export type FakeWrite = {
  method: 'POST' | 'PATCH' | 'DELETE';
  resource: string;
  id: number | undefined;
  body: unknown;
  // A DELETE by filter (e.g. balena-sdk's team membership removal): its $filter, as sent.
  filter?: string;
};

// `text`: a plain-text (or Markdown) answer; `body`: a JSON one; `stream`: an NDJSON body the
// test writes to as it goes (the log stream).
export type FakeReply = {
  status: number;
  body?: unknown;
  text?: string;
  stream?: ReadableStream<Uint8Array>;
};
// `url`: the request's address, for handlers that read its query.
export type FakeHandler = (body: unknown, url: URL) => FakeReply | Promise<FakeReply>;

// GET /status/v1 with every component operational and no notices.
export const operationalStatus = (): StatusAnswer => ({
  status: 'operational',
  checkedAt: '2026-01-01T00:00:00.000Z',
  externalUrl: null,
  components: [{ id: 'api', name: 'API', status: 'operational', detail: null }],
  notices: [],
});

export type FakeApi = {
  client: FlotillaClient;
  data: FakeData;
  // Every /v7 read's URL (each read of a $batch too) and every /v7 write, in order.
  reads: URL[];
  writes: FakeWrite[];
  // Answers a non-/v7 path (e.g. POST /supervisor/v1/blink).
  on(method: string, path: string, handler: FakeHandler): void;
  // How a POST of `resource` is stored: its body as a fixture row with navigations (a body
  // holds foreign keys only, e.g. { service: 6 }, which later filters through a navigation may
  // need as rows).
  shapeCreated(resource: string, shape: (body: Record<string, unknown>) => FakeRow): void;
  // How a PATCH of `resource` changes its row (by default the body's fields replace the row's;
  // a foreign key in the body may need to become the navigation later reads filter through).
  shapeUpdated(
    resource: string,
    shape: (row: FakeRow, body: Record<string, unknown>) => FakeRow,
  ): void;
  // The next /v7 write of this method on this row fails with this text (and status, 400 unless
  // given).
  refuseNext(
    method: FakeWrite['method'],
    resource: string,
    id: number | undefined,
    text: string,
    status?: number,
  ): void;
  // The next /v7 read of this resource (that `matches`, when given) fails with this text (and
  // status, 500 unless given).
  refuseNextRead(
    resource: string,
    text: string,
    options?: { status?: number; matches?: (url: URL) => boolean },
  ): void;
};

export type FakeSession = {
  userId?: number;
  permissions?: string[];
  twoFactorRequired?: boolean;
  // A platform administrator logged in as this user (login-as).
  actualUser?: number;
};

const base64url = (value: object): string =>
  btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

// An unsigned session token: the console only decodes its claims.
export const sessionToken = (claims: Record<string, unknown> = {}): string => {
  const now = Math.floor(Date.now() / 1000);
  return `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({
    id: 7,
    authTime: Date.now(),
    iat: now,
    exp: now + 3600,
    permissions: [],
    ...claims,
  })}.signature`;
};

// What the fake could not answer, reported after each test.
const problems: string[] = [];
afterEach(() => {
  const found = problems.splice(0);
  if (found.length > 0) throw new FakeApiError(found.join('\n'));
});

const json = (status: number, body: unknown): Response =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

const textResponse = (status: number, text: string): Response =>
  new Response(text, { status, headers: { 'content-type': 'text/plain' } });

const isMethod = (method: string): method is FakeWrite['method'] =>
  method === 'POST' || method === 'PATCH' || method === 'DELETE';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// Where the console reaches the API: the page's own origin ('') unless a test says otherwise.
export type FakeApiOptions = { apiUrl?: string };

// `session` null: a guest (no token).
export const createFakeApi = (
  data: FakeData = {},
  session: FakeSession | null = {},
  options: FakeApiOptions = {},
): FakeApi => {
  const reads: URL[] = [];
  const writes: FakeWrite[] = [];
  const handlers = new Map<string, FakeHandler>();
  // The header's status dot asks on every signed-in screen: all operational unless a test says
  // otherwise (api.on replaces it).
  handlers.set('GET /status/v1', () => ({ status: 200, body: operationalStatus() }));
  // The device page and the devices table ask which actions wait for offline devices: none
  // unless a test says otherwise.
  handlers.set('GET /device-actions/v1/queued', () => ({ status: 200, body: [] }));
  const shapes = new Map<string, (body: Record<string, unknown>) => FakeRow>();
  const updateShapes = new Map<string, (row: FakeRow, body: Record<string, unknown>) => FakeRow>();
  const refusals: {
    method: string;
    resource: string;
    id: number | undefined;
    text: string;
    status: number;
  }[] = [];
  const readRefusals: {
    resource: string;
    text: string;
    status: number;
    matches: (url: URL) => boolean;
  }[] = [];
  let nextId = 1000;

  const write = (
    method: FakeWrite['method'],
    path: string,
    search: string,
    body: unknown,
  ): Response => {
    const { resource, id } = writeTarget(path);
    // A DELETE without a key is by filter; other writes keep their key (their query is ignored).
    const filter =
      method === 'DELETE' && id === undefined
        ? (new URLSearchParams(search).get('$filter') ?? undefined)
        : undefined;
    writes.push({ method, resource, id, body, ...(filter === undefined ? {} : { filter }) });
    const refusal = refusals.findIndex(
      (r) => r.method === method && r.resource === resource && r.id === id,
    );
    if (refusal !== -1) {
      const [refused] = refusals.splice(refusal, 1);
      if (refused) return textResponse(refused.status, refused.text);
    }
    const rows = data[resource] ?? [];
    if (method === 'POST') {
      const fields = isRecord(body) ? body : {};
      const created: FakeRow = { ...(shapes.get(resource)?.(fields) ?? fields), id: nextId++ };
      data[resource] = [...rows, created];
      return json(201, created);
    }
    if (filter !== undefined) {
      const matched = answerRead(data, `${path}${search}`);
      const ids = new Set(
        (Array.isArray(matched) ? matched : []).flatMap((row: unknown) =>
          isRecord(row) && typeof row.id === 'number' ? [row.id] : [],
        ),
      );
      data[resource] = rows.filter((row) => !ids.has(Number(row.id)));
      return textResponse(200, 'OK');
    }
    if (id === undefined) throw new FakeApiError(`${method} ${path} without a key`);
    data[resource] =
      method === 'DELETE'
        ? rows.filter((row) => row.id !== id)
        : rows.map((row) =>
            row.id === id && isRecord(body)
              ? (updateShapes.get(resource)?.(row, body) ?? { ...row, ...body })
              : row,
          );
    return textResponse(200, 'OK');
  };

  // One /v7 read, as a GET or inside a batch.
  const read = (url: URL): { status: number; body?: unknown; text?: string } => {
    reads.push(url);
    const path = decodeURIComponent(url.pathname.slice('/v7'.length));
    const resource = /^\/([a-z_]+)/.exec(path)?.[1];
    const refused = readRefusals.findIndex((r) => r.resource === resource && r.matches(url));
    const [refusal] = refused === -1 ? [] : readRefusals.splice(refused, 1);
    if (refusal) return { status: refusal.status, text: refusal.text };
    return { status: 200, body: { d: answerRead(data, `${path}${url.search}`) } };
  };

  // POST /v7/$batch: GETs of /v7 only, as the server takes them (infra/odata/register-batch-route.ts).
  const batch = (body: unknown): { responses: unknown[] } => {
    const requests = isRecord(body) && Array.isArray(body.requests) ? body.requests : [];
    if (requests.length === 0) throw new FakeApiError('$batch without requests');
    return {
      responses: requests.map((request: unknown) => {
        if (
          !isRecord(request) ||
          typeof request.id !== 'string' ||
          request.method !== 'GET' ||
          typeof request.url !== 'string' ||
          !request.url.startsWith('/v7/')
        ) {
          throw new FakeApiError(`$batch request the server refuses: ${JSON.stringify(request)}`);
        }
        const answered = read(new URL(request.url, 'http://console.test'));
        return {
          id: request.id,
          status: answered.status,
          body: answered.text ?? answered.body,
        };
      }),
    };
  };

  const answer = async (url: URL, method: string, body: unknown): Promise<Response> => {
    const target = `${url.pathname}${url.search}`;
    if (url.pathname.startsWith('/v7/')) {
      const path = decodeURIComponent(url.pathname.slice('/v7'.length));
      if (method === 'GET') {
        const answered = read(url);
        return answered.text === undefined
          ? json(200, answered.body)
          : textResponse(answered.status, answered.text);
      }
      if (method === 'POST' && path === '/$batch') return json(200, batch(body));
      if (isMethod(method)) return write(method, path, url.search, body);
    }
    const handler = handlers.get(`${method} ${url.pathname}`);
    if (handler) {
      const reply = await handler(body, url);
      if (reply.stream) {
        return new Response(reply.stream, {
          status: reply.status,
          headers: { 'content-type': 'application/x-ndjson' },
        });
      }
      return reply.text === undefined
        ? json(reply.status, reply.body)
        : textResponse(reply.status, reply.text);
    }
    // The fleet summary asks for the fleet's rollouts: none, unless a test answers the exact
    // path with api.on.
    if (method === 'GET' && /^\/rollouts\/v1\/fleets\/\d+\/rollouts$/.test(url.pathname)) {
      return json(200, { rollouts: [] });
    }
    throw new FakeApiError(`No fake answer for ${method} ${target}`);
  };

  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(
      input instanceof Request ? input.url : String(input),
      'http://console.test',
    );
    const method = init?.method ?? 'GET';
    const raw = init?.body;
    try {
      return await answer(
        url,
        method,
        // An upload reaches the handler as the Blob it is.
        typeof raw === 'string'
          ? (JSON.parse(raw) as unknown)
          : raw instanceof Blob
            ? raw
            : undefined,
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      problems.push(`${method} ${url.pathname}${url.search}: ${message}`);
      return textResponse(400, message);
    }
  };

  const token =
    session === null
      ? null
      : sessionToken({
          id: session.userId ?? 7,
          permissions: session.permissions ?? [],
          ...(session.twoFactorRequired === undefined
            ? {}
            : { twoFactorRequired: session.twoFactorRequired }),
          ...(session.actualUser === undefined ? {} : { actualUser: session.actualUser }),
        });
  const client = createFlotillaClient({
    apiUrl: options.apiUrl,
    storage: memoryTokenStorage(token),
    fetch,
  });
  return {
    client,
    data,
    reads,
    writes,
    on(method, path, handler) {
      handlers.set(`${method} ${path}`, handler);
    },
    shapeCreated(resource, shape) {
      shapes.set(resource, shape);
    },
    shapeUpdated(resource, shape) {
      updateShapes.set(resource, shape);
    },
    refuseNext(method, resource, id, text, status = 400) {
      refusals.push({ method, resource, id, text, status });
    },
    refuseNextRead(resource, text, { status = 500, matches = () => true } = {}) {
      readRefusals.push({ resource, text, status, matches });
    },
  };
};
