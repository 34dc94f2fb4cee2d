import { z } from 'zod';

// What the console posts to POST /error-reports/v1 for an unhandled error, bounded in size.
export const errorReportLimits = {
  name: 100,
  message: 1000,
  stack: 8000,
  location: 500,
  release: 50,
  requestId: 100,
} as const;

export const consoleErrorReport = z.object({
  name: z.string().trim().min(1).max(errorReportLimits.name).default('Error'),
  message: z.string().trim().min(1, 'Message is required').max(errorReportLimits.message),
  stack: z.string().max(errorReportLimits.stack).default(''),
  // The console's route where it happened.
  location: z.string().max(errorReportLimits.location).default(''),
  release: z.string().trim().max(errorReportLimits.release).default(''),
  requestId: z
    .string()
    .trim()
    .regex(/^[\w.:-]{1,100}$/, 'Request id must be letters, digits, dots, colons or dashes')
    .optional(),
});
export type ConsoleErrorReport = z.input<typeof consoleErrorReport>;

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
