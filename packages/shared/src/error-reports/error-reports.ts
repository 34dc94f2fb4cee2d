// What the console posts to POST /error-reports/v1 for an unhandled error, bounded in size.
export const errorReportLimits = {
  name: 100,
  message: 1000,
  stack: 8000,
  location: 500,
  release: 50,
  requestId: 100,
} as const;

// What the console posts (the server validates it with consoleErrorReport).
export type ConsoleErrorReport = {
  name?: string;
  message: string;
  stack?: string;
  location?: string;
  release?: string;
  requestId?: string;
};

// One grouped error as the Admin area lists it (GET /admin/v1/error-reports).
export type ErrorReport = {
  id: number;
  source: 'console' | 'server';
  name: string;
  message: string;
  stack: string;
  location: string;
  release: string;
  lastRequestId: string | null;
  count: number;
  firstSeenAt: string;
  lastSeenAt: string;
};
