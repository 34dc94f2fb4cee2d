// Business constants shared by server and console.
export const passwordLength = { min: 8, max: 64 } as const;
export const sessionTokenLifetimeSeconds = 36 * 60 * 60;
export const tokenRefreshAfterAuthMs = 20 * 60 * 1000;
export const tokenRefreshEveryMs = 3_600_000;
export const tokenCheckEveryMs = 1000;
export const apiPagingLimit = 350;
export const errorTextCap = 500;
export const defaultPollingMs = 15_000;
export const pollingGrace = 0.33;
export const fleetListRefreshMs = 8000;
export const bulkConcurrency = 50;
// Staged variable and configuration changes are written 10 at a time.
export const configWriteConcurrency = 10;
// The API key list is refetched every 6 seconds.
export const apiKeyListRefreshMs = 6000;
export const fleetNameLength = { min: 4, max: 100 } as const;
export const usernameDisplay = { truncateTo: 17, over: 20 } as const;
export const ssoIdentifierMinLength = 3;
export const apiKeyExpiryPresetDays = [1, 7, 30, 90] as const;
export const dashboardVersion = '31.3.9';

// Longest accepted text values, in characters, checked by the server on every /v7 write
// (docs/API-LIMITS.md) and usable by the console's forms.
export const textLengthLimits = {
  // Names and keys: variable names, tag and label keys, device, team and organization names,
  // API key names, usernames.
  name: 255,
  // Every other text field: values of variables and tags, notes, descriptions. A process
  // environment holds one variable of at most 128 KiB, so a value is bounded well below that.
  text: 100_000,
  // Build logs and Dockerfiles, bounded only by the request body (1 MiB).
  long: 1_048_576,
} as const;

// An invitation link (organization or fleet) works this long after it was sent.
export const invitationLifetimeDays = 7;
// The inviter's own words sent with an invitation, in characters: a note, not a letter (the mail
// quotes it as theirs).
export const invitationMessageMaxLength = 500;
// Organization logos: png or jpeg of at most this many bytes.
export const logoMaxBytes = 1_000_000;
// Rows per page of the member lists (organization and fleet members).
export const memberListPageSize = 50;
// Role changes of members run one at a time.
export const roleChangeConcurrency = 1;
// Reads one `POST /v7/$batch` may carry; in how many combined statements the server runs them
// side by side (two: the fleet list's seven counts took 11 ms as one statement, 6.5 as two, no
// less as four on two cores); how many run at once when each must run alone.
export const odataBatch = { maxRequests: 20, statements: 2, concurrency: 4 } as const;
