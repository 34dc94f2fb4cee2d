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

// node-postgres keeps the backend's process id from the connection handshake (not in its types).
const backendPid = (client: object): number | undefined =>
  'processID' in client && typeof client.processID === 'number' ? client.processID : undefined;

const isQueryCanceled = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === '57014';

// Cancels over a fresh connection, so it works while every pooled connection is busy.
const cancelBackend = async (url: string, pid: number): Promise<void> => {
  const canceller = new pg.Client({ connectionString: url });
  canceller.on('error', () => undefined);
  try {
    await canceller.connect();
    await canceller.query('SELECT pg_cancel_backend($1)', [pid]);
  } finally {
    await canceller.end().catch(() => undefined);
  }
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
    const pid = backendPid(client);
    if (pid !== undefined) void cancelBackend(url, pid).catch(() => undefined);
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
