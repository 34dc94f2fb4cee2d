import net from 'node:net';
import pg from 'pg';

// Bounds on one statement, for requests whose SQL a client shapes (the /v7 engine).
export type QueryLimits = {
  // Aborted when the HTTP client goes away: the running statement is cancelled.
  signal?: AbortSignal;
  // A statement still running after this long is cancelled.
  timeoutMs?: number;
};

export type CancelReason = 'timeout' | 'aborted';

// A statement PostgreSQL cancelled because of its QueryLimits.
export class QueryCancelledError extends Error {
  readonly reason: CancelReason;
  readonly timeoutMs: number | undefined;

  constructor(reason: CancelReason, timeoutMs?: number) {
    super(reason === 'timeout' ? `statement ran over ${timeoutMs ?? '?'} ms` : 'client went away');
    this.name = 'QueryCancelledError';
    this.reason = reason;
    this.timeoutMs = timeoutMs;
  }
}

// node-postgres keeps the cancel key from the connection handshake (not in its types): the
// backend's process id and secret, or a pooler's own pair for the session it hands out.
type CancelKey = { processId: number; secret: number };
const cancelKeyOf = (client: object): CancelKey | undefined =>
  'processID' in client &&
  typeof client.processID === 'number' &&
  'secretKey' in client &&
  typeof client.secretKey === 'number'
    ? { processId: client.processID, secret: client.secretKey }
    : undefined;

const isQueryCanceled = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === '57014';

// PostgreSQL's CancelRequest message: length, the request code 80877102, the key.
const cancelRequest = (key: CancelKey): Buffer => {
  const message = Buffer.alloc(16);
  message.writeInt32BE(16, 0);
  message.writeInt32BE(80877102, 4);
  message.writeInt32BE(key.processId, 8);
  message.writeInt32BE(key.secret, 12);
  return message;
};

// Cancels with the protocol's own cancel request on a connection of its own (so it works while
// every pooled connection is busy), not with pg_cancel_backend(pid): a pooler in front
// (PgBouncer) hands out cancel keys of its own and forwards only this request to the server.
const cancelBackend = async (url: string, key: CancelKey): Promise<void> => {
  // node-postgres's own reading of the address (URL, PGHOST/PGPORT, socket directories).
  const { host, port } = new pg.Client({ connectionString: url });
  await new Promise<void>((resolve) => {
    const socket = host.startsWith('/')
      ? net.connect(`${host}/.s.PGSQL.${port}`)
      : net.connect(port, host);
    socket.setTimeout(5000, () => socket.destroy());
    socket.on('connect', () => socket.end(cancelRequest(key)));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
  });
};

// Whether (and why) a cancel was sent on a connection: a cancel that arrives after its statement
// ended could hit the connection's next one, so such a connection is closed, never reused.
export type CancelState = { reason: CancelReason | undefined };

// Runs one statement, cancelling it on PostgreSQL's side when the signal aborts or the time
// runs out; the cancelled statement rejects with QueryCancelledError.
export const runWithLimits = async <Row extends pg.QueryResultRow>(
  client: pg.ClientBase,
  url: string,
  // `name`: run as that prepared statement (database.ts QueryOptions).
  statement: { sql: string; params: unknown[]; name?: string },
  limits: QueryLimits,
  state: CancelState,
): Promise<pg.QueryResult<Row>> => {
  if (limits.signal?.aborted) throw new QueryCancelledError('aborted');
  let reason: CancelReason | undefined;
  const cancel = (why: CancelReason): void => {
    if (reason) return;
    reason = why;
    state.reason = why;
    const key = cancelKeyOf(client);
    if (key !== undefined) void cancelBackend(url, key).catch(() => undefined);
  };
  const onAbort = (): void => cancel('aborted');
  const timer =
    limits.timeoutMs === undefined
      ? undefined
      : setTimeout(() => cancel('timeout'), limits.timeoutMs);
  limits.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await client.query<Row>({
      text: statement.sql,
      values: statement.params,
      name: statement.name,
    });
  } catch (error) {
    if (reason && isQueryCanceled(error)) throw new QueryCancelledError(reason, limits.timeoutMs);
    throw error;
  } finally {
    clearTimeout(timer);
    limits.signal?.removeEventListener('abort', onAbort);
  }
};
