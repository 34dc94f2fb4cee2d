// Failures that mean "the database cannot be reached right now" (stopped, restarting, network
// cut, pool closed) rather than "this statement is wrong". Requests failing this way answer 503
// with Retry-After (infra/http/create-app.ts), and retrying later is the right thing to do.

// How long clients are asked to wait before trying again.
export const databaseRetryAfterSeconds = 5;

export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super(
      `The database is unavailable (${cause instanceof Error ? cause.message : String(cause)})`,
      { cause },
    );
    this.name = 'DatabaseUnavailableError';
  }
}

// Socket errors of the connection to PostgreSQL.
const socketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// SQLSTATE 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up,
// recovering); class 08 is "connection exception". 25006 read_only_sql_transaction: a write
// reached a standby, which happens only while a failover is repointing the address (Flotilla
// never opens read-only transactions on the primary itself).
const isUnavailableSqlState = (code: string): boolean =>
  code === '57P01' ||
  code === '57P02' ||
  code === '57P03' ||
  code === '25006' ||
  /^08[0-9A-Z]{3}$/.test(code);

// node-postgres reports a lost or never-made connection with these messages (no code).
const lostConnectionMessages = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
];

export const isDatabaseUnavailable = (error: unknown): boolean => {
  if (error instanceof DatabaseUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  if (socketCodes.has(code) || isUnavailableSqlState(code)) return true;
  return lostConnectionMessages.some((message) => error.message.includes(message));
};

// Wraps connection failures so every layer above sees one type; other errors pass unchanged.
export const asUnavailable = (error: unknown): unknown =>
  error instanceof DatabaseUnavailableError || !isDatabaseUnavailable(error)
    ? error
    : new DatabaseUnavailableError(error);
