import { describe, expect, it } from 'vitest';
import { twoFactorErrors } from '@flotilla/shared/auth/two-factor';
import {
  deviceUpdateRequiredMessage,
  errorCodeOfStatus,
  errorText,
  FlotillaApiError,
  FlotillaNetworkError,
  FlotillaSessionError,
  messageOfErrorBody,
} from './errors.js';

const apiError = (
  status: number,
  message: string,
  extra: { path?: string; sentToken?: boolean; method?: 'GET' | 'PATCH' } = {},
): FlotillaApiError =>
  new FlotillaApiError({
    status,
    body: message,
    message,
    method: extra.method ?? 'GET',
    path: extra.path ?? '/v7/application',
    token: (extra.sentToken ?? true) ? 'a-session-token' : null,
  });

describe('errorCodeOfStatus', () => {
  it('maps statuses back to the shared error codes', () => {
    expect(errorCodeOfStatus(400)).toBe('bad_request');
    expect(errorCodeOfStatus(401)).toBe('unauthorized');
    expect(errorCodeOfStatus(403)).toBe('forbidden');
    expect(errorCodeOfStatus(404)).toBe('not_found');
    expect(errorCodeOfStatus(409)).toBe('conflict');
    expect(errorCodeOfStatus(413)).toBe('payload_too_large');
    expect(errorCodeOfStatus(423)).toBe('locked');
    expect(errorCodeOfStatus(429)).toBe('rate_limited');
    expect(errorCodeOfStatus(500)).toBe('internal');
    expect(errorCodeOfStatus(501)).toBe('not_implemented');
    expect(errorCodeOfStatus(502)).toBe('internal');
    expect(errorCodeOfStatus(503)).toBe('device_offline');
    expect(errorCodeOfStatus(418)).toBe('bad_request');
  });

  it('is set on FlotillaApiError', () => {
    const error = apiError(409, 'Unique key constraint violated');
    expect(error.code).toBe('conflict');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('FlotillaApiError');
  });
});

describe('messageOfErrorBody', () => {
  it('reads error.text, then message, then a string error, then the raw body', () => {
    expect(messageOfErrorBody({ error: { text: 'A' }, message: 'B' }, 'raw')).toBe('A');
    expect(messageOfErrorBody({ message: 'B', error: 'C' }, 'raw')).toBe('B');
    expect(messageOfErrorBody({ error: 'C' }, 'raw')).toBe('C');
    expect(messageOfErrorBody({ other: 1 }, ' raw ')).toBe('raw');
    expect(messageOfErrorBody('Unique key constraint violated', '"x"')).toBe(
      'Unique key constraint violated',
    );
  });

  it('reduces an HTML page to its error text', () => {
    const page =
      '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
    expect(messageOfErrorBody(page, page)).toBe('502 Bad Gateway');
  });
});

describe('errorText', () => {
  it('trims strings and shows nothing for "skip"', () => {
    expect(errorText('  Fleet name too short \n')).toBe('Fleet name too short');
    expect(errorText('skip')).toBeNull();
    expect(errorText('  skip ')).toBeNull();
    expect(errorText(new Error('skip'))).toBeNull();
  });

  it('falls back to the generic message', () => {
    expect(errorText(undefined)).toBe('An error has occurred');
    expect(errorText(null)).toBe('An error has occurred');
    expect(errorText(42)).toBe('An error has occurred');
    expect(errorText('   ')).toBe('An error has occurred');
    expect(errorText(new Error(''))).toBe('An error has occurred');
  });

  it('shows the message of plain errors and error-like objects', () => {
    expect(errorText(new Error(' Boom '))).toBe('Boom');
    expect(errorText({ message: 'From an object' })).toBe('From an object');
  });

  it('caps texts at 500 characters', () => {
    const text = errorText('x'.repeat(800));
    expect(text).toHaveLength(500);
    expect(text?.endsWith('…')).toBe(true);
    expect(errorText('y'.repeat(500))).toBe('y'.repeat(500));
    expect(errorText(apiError(400, 'z'.repeat(600)))).toHaveLength(500);
  });

  it('reduces HTML to its title, heading or text', () => {
    expect(errorText('<html><head><title>Service Unavailable</title></head></html>')).toBe(
      'Service Unavailable',
    );
    expect(
      errorText(
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Error</title></head><body><pre>Cannot GET /x &amp; y</pre></body></html>',
      ),
    ).toBe('Cannot GET /x & y');
    expect(errorText('<p>  Something   <b>broke</b>\n</p>')).toBe('Something broke');
  });

  it('maps 429 to the rate-limit message', () => {
    expect(errorText(apiError(429, 'Too Many Requests'))).toBe(
      'Too Many Requests. Try again later',
    );
  });

  it('says when a throttled action is available again, or "shortly" when that is near', () => {
    const receivedAt = new Date(2026, 10, 29, 14, 5, 0).getTime();
    const throttled = (retryAfterSeconds?: number) =>
      new FlotillaApiError({
        status: 429,
        body: 'Too Many Requests',
        message: 'Too Many Requests',
        ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
        receivedAt,
        method: 'POST',
        path: '/device/v2/abc/restart',
        token: 'a-session-token',
      });
    // Retry-After 90 s: available again at 14:06:30 local time.
    expect(throttled(90).availableAt).toBe(receivedAt + 90_000);
    expect(errorText(throttled(90), receivedAt)).toBe('Too Many Requests. Try again at 14:06:30');
    // Never less than 5 s, and a wait that is nearly over reads "shortly".
    expect(throttled(1).availableAt).toBe(receivedAt + 5000);
    expect(throttled().availableAt).toBe(receivedAt + 5000);
    expect(errorText(throttled(1), receivedAt)).toBe('Too Many Requests. Try again shortly');
    expect(errorText(throttled(90), receivedAt + 85_000)).toBe(
      'Too Many Requests. Try again shortly',
    );
  });

  it('shows the not-found and ambiguous answers as they are', () => {
    expect(errorText(apiError(404, 'Image not found'))).toBe('Image not found');
    expect(errorText(apiError(404, 'Device not found: 1234567'))).toBe('Device not found: 1234567');
    expect(errorText(apiError(409, 'Device is ambiguous: 1234567'))).toBe(
      'Device is ambiguous: 1234567',
    );
  });

  it('says a device update is required for a 400 "updateRequired"', () => {
    const parsed: unknown = JSON.parse('{"error":"updateRequired"}');
    const message = messageOfErrorBody(parsed, '{"error":"updateRequired"}');
    expect(errorText(apiError(400, message))).toBe(deviceUpdateRequiredMessage);
    // Another status with that text is an ordinary error.
    expect(errorText(apiError(409, message))).toBe('Request error: updateRequired');
  });

  it('maps 401s to the session messages', () => {
    expect(errorText(apiError(401, 'Unauthorized', { sentToken: false }))).toBe(
      'You have to log in',
    );
    expect(
      errorText(apiError(401, 'Invalid login credentials', { path: '/login_', sentToken: false })),
    ).toBe('Invalid login credentials');
    // Login-as (PATCH /login_) keeps the server's reason.
    expect(
      errorText(
        apiError(401, 'Return to your own account first', { path: '/login_', method: 'PATCH' }),
      ),
    ).toBe('Request error: Return to your own account first');
    expect(errorText(apiError(401, 'The token expired'))).toBe(
      'Your authentication token has expired',
    );
    expect(errorText(apiError(401, 'Your session has expired'))).toBe('Your session has expired');
    expect(errorText(apiError(401, 'Malformed token'))).toBe('Malformed token');
    expect(errorText(apiError(401, 'Unauthorized'))).toBe('Request error: Unauthorized');
  });

  it('keeps server texts that are console messages, prefixes the others', () => {
    expect(errorText(apiError(404, 'Invalid device type: nope'))).toBe('Invalid device type: nope');
    expect(errorText(apiError(400, 'Discontinued device type: old'))).toBe(
      'Discontinued device type: old',
    );
    for (const { message } of Object.values(twoFactorErrors)) {
      expect(errorText(apiError(400, message))).toBe(message);
    }
    expect(errorText(apiError(401, 'Invalid password'))).toBe('Invalid password');
    for (const message of [
      'Repository not found: https://github.com/acme/widget',
      'The balena.yml contract in the repository is invalid: there is no balena.yml on branch main',
      'Failed retrieving data from the code host (no answer within 10 s)',
    ]) {
      expect(errorText(apiError(400, message))).toBe(message);
    }
    expect(errorText(apiError(409, 'Unique key constraint violated'))).toBe(
      'Request error: Unique key constraint violated',
    );
    expect(errorText(apiError(500, ''))).toBe('Request error: 500');
  });

  it('shows client-side session and network errors by their message', () => {
    expect(errorText(new FlotillaSessionError('not-logged-in'))).toBe('You have to log in');
    expect(errorText(new FlotillaSessionError('expired'))).toBe(
      'Your authentication token has expired',
    );
    expect(errorText(new FlotillaSessionError('malformed'))).toBe('Malformed token');
    expect(errorText(new FlotillaNetworkError('network'))).toBe('Could not reach the server');
    expect(errorText(new FlotillaNetworkError('timeout'))).toBe(
      'The server did not answer in time',
    );
  });
});
