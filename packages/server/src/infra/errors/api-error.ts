import type { ErrorCode } from '@flotilla/shared/errors/error-codes';

// The one error type every handler throws; each transport maps its code exactly once.
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string, options: { retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export const badRequest = (message: string): ApiError => new ApiError('bad_request', message);
export const unauthorized = (message = 'Unauthorized'): ApiError =>
  new ApiError('unauthorized', message);
export const forbidden = (message = 'Unauthorized'): ApiError => new ApiError('forbidden', message);
export const notFound = (message = 'Not found'): ApiError => new ApiError('not_found', message);
export const conflict = (message: string): ApiError => new ApiError('conflict', message);
