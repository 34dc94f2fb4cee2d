// The closed set of error codes every transport maps exactly once (HTTP in the server, toasts in the web app).
export const errorCodes = [
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'locked',
  'payload_too_large',
  'rate_limited',
  'device_offline',
  // A third-party service the request needs (the captcha provider) did not answer usably.
  'service_unavailable',
  'not_implemented',
  'internal',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

// HTTP status per code. "forbidden" deliberately maps to 401: balena's API answers 401 for anything
// the caller may not do, and the SDK depends on that (wire contract, section 2).
export const httpStatusOf: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 401,
  not_found: 404,
  conflict: 409,
  locked: 423,
  payload_too_large: 413,
  rate_limited: 429,
  device_offline: 503,
  service_unavailable: 503,
  not_implemented: 501,
  internal: 500,
};
