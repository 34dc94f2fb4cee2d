import { errorTextCap } from '@flotilla/shared/constants/limits';
import type { ErrorCode } from '@flotilla/shared/errors/error-codes';
import { htmlErrorText, looksLikeHtml } from './html-text.js';
import { twoFactorErrors } from '@flotilla/shared/auth/two-factor';
import { minThrottleSeconds } from './throttle.js';

// The shared code for an HTTP status (the server maps each code to a status exactly once; this
// is the way back). "forbidden" comes back as 401 from balena-compatible servers, so only an
// explicit 403 yields it.
export const errorCodeOfStatus = (status: number): ErrorCode => {
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 423:
      return 'locked';
    case 429:
      return 'rate_limited';
    case 501:
      return 'not_implemented';
    case 503:
      return 'device_offline';
    default:
      return status >= 500 ? 'internal' : 'bad_request';
  }
};

export type ApiErrorInit = {
  status: number;
  // The response body as received (text).
  body: string;
  // The readable error text taken from the body (see messageOfErrorBody).
  message: string;
  retryAfterSeconds?: number;
  // When the answer arrived (ms since the epoch): with Retry-After, when the action is available
  // again.
  receivedAt?: number;
  method: string;
  path: string;
  // The token the request carried, if any: a 401 without one means "not logged in", and a 401
  // for a token the client has since replaced says nothing about the current session.
  token: string | null;
};

// An HTTP answer with status >= 400.
export class FlotillaApiError extends Error {
  readonly status: number;
  readonly body: string;
  readonly retryAfterSeconds?: number;
  // For a 429, when requests are accepted again (ms since the epoch): Retry-After, at least
  // the throttle's minimum, after the answer arrived.
  readonly availableAt?: number;
  readonly code: ErrorCode;
  readonly method: string;
  readonly path: string;
  readonly sentToken: boolean;
  // Private, so the token never shows in logs or serialised errors.
  readonly #token: string | null;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'FlotillaApiError';
    this.status = init.status;
    this.body = init.body;
    if (init.retryAfterSeconds !== undefined) this.retryAfterSeconds = init.retryAfterSeconds;
    if (init.status === 429 && init.receivedAt !== undefined) {
      const waitSeconds = Math.max(init.retryAfterSeconds ?? 0, minThrottleSeconds);
      this.availableAt = init.receivedAt + waitSeconds * 1000;
    }
    this.code = errorCodeOfStatus(init.status);
    this.method = init.method;
    this.path = init.path;
    this.sentToken = init.token !== null;
    this.#token = init.token;
  }

  // Whether this answer was to a request that carried `token`.
  answered(token: string | null): boolean {
    return token !== null && this.#token === token;
  }
}

export type NetworkFailure = 'network' | 'timeout';

// No HTTP answer at all: the server could not be reached or did not answer in time.
export class FlotillaNetworkError extends Error {
  readonly kind: NetworkFailure;

  constructor(kind: NetworkFailure, options: { cause?: unknown } = {}) {
    super(kind === 'timeout' ? 'The server did not answer in time' : 'Could not reach the server');
    this.name = 'FlotillaNetworkError';
    this.kind = kind;
    if (options.cause !== undefined) this.cause = options.cause;
  }
}

export type SessionFailure = 'not-logged-in' | 'expired' | 'malformed';

const sessionMessages: Record<SessionFailure, string> = {
  'not-logged-in': 'You have to log in',
  expired: 'Your authentication token has expired',
  malformed: 'Malformed token',
};

// A session problem detected on the client, before or instead of a request.
export class FlotillaSessionError extends Error {
  readonly reason: SessionFailure;

  constructor(reason: SessionFailure) {
    super(sessionMessages[reason]);
    this.name = 'FlotillaSessionError';
    this.reason = reason;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// Where balena-compatible servers put the error text: body.error.text, else body.message, else
// body.error when it is a string, else the body itself (HTML pages reduced to their text).
export const messageOfErrorBody = (parsed: unknown, raw: string): string => {
  let message = raw;
  if (typeof parsed === 'string') message = parsed;
  else if (isRecord(parsed)) {
    const { error } = parsed;
    if (isRecord(error) && typeof error.text === 'string') message = error.text;
    else if (typeof parsed.message === 'string') message = parsed.message;
    else if (typeof error === 'string') message = error;
  }
  return looksLikeHtml(message) ? htmlErrorText(message) : message.trim();
};

const fallbackText = 'An error has occurred';

// Server texts that are already one of the console's messages.
const verbatimMessages = [
  /^Your session has expired$/,
  /^Malformed token$/,
  /^Invalid login credentials$/,
  /^Invalid parameter: .* is not a valid value for parameter '.*'$/s,
  /^Key not found/,
  /^Role .+ not found$/,
  /^Invalid device type: /,
  /^Discontinued device type: /,
  // The code-host lookups of a repository URL (the create-fleet dialog).
  /^Repository not found: /,
  /^The balena.yml contract in the repository is invalid/,
  /^Failed retrieving data from the code host/,
  // What the API answers for a named thing it cannot find, or finds more than one of.
  /^Image not found$/,
  /^(Device|Fleet|Release) not found/,
  /^(Device|Fleet|Release) is ambiguous/,
  // The two-factor errors (code required, code invalid), and a refused password (re-authentication,
  // disabling two-factor).
  ...Object.values(twoFactorErrors).map(({ message }) => new RegExp(`^${message}$`)),
  /^Invalid password$/,
];

// Within this many seconds of being available again, a throttled action says "try again shortly".
const shortlySeconds = 10;

const twoDigits = (value: number): string => String(value).padStart(2, '0');

const rateLimitedText = (error: FlotillaApiError, now: number): string => {
  if (error.availableAt === undefined) return 'Too Many Requests. Try again later';
  if (error.availableAt - now <= shortlySeconds * 1000) {
    return 'Too Many Requests. Try again shortly';
  }
  const at = new Date(error.availableAt);
  const time = [at.getHours(), at.getMinutes(), at.getSeconds()].map(twoDigits).join(':');
  return `Too Many Requests. Try again at ${time}`;
};

// A 400 whose body's error is "updateRequired": the device must be updated first.
export const deviceUpdateRequiredMessage =
  'A device update is required: update the device, then try again';

const apiErrorText = (error: FlotillaApiError, message: string, now: number): string => {
  if (error.status === 429) return rateLimitedText(error, now);
  if (error.status === 400 && message === 'updateRequired') return deviceUpdateRequiredMessage;
  if (error.status === 401) {
    // PATCH /login_ is a platform administrator's login-as: its refusals say why.
    if (error.path.startsWith('/login_') && error.method !== 'PATCH') {
      return 'Invalid login credentials';
    }
    if (!error.sentToken) return 'You have to log in';
    if (message === 'The token expired') return sessionMessages.expired;
  }
  if (verbatimMessages.some((pattern) => pattern.test(message))) return message;
  return `Request error: ${message === '' ? String(error.status) : message}`;
};

const rawMessageOf = (error: unknown): string | undefined => {
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.message;
  if (isRecord(error) && typeof error.message === 'string') return error.message;
  return undefined;
};

const cap = (text: string): string =>
  text.length > errorTextCap ? `${text.slice(0, errorTextCap - 1)}…` : text;

// The text the console shows for an error: known SDK and HTTP situations
// get their fixed message, other texts are trimmed, HTML reduced to its error text and capped at
// 500 characters. "skip" means show nothing (null); anything unreadable gets the generic message.
// `now` (ms since the epoch) dates a throttled action's "try again at".
export const errorText = (error: unknown, now: number = Date.now()): string | null => {
  const raw = rawMessageOf(error);
  if (raw === undefined) return fallbackText;
  const message = looksLikeHtml(raw) ? htmlErrorText(raw) : raw.trim();
  if (message === 'skip') return null;
  if (error instanceof FlotillaApiError) return cap(apiErrorText(error, message, now));
  return message === '' ? fallbackText : cap(message);
};
