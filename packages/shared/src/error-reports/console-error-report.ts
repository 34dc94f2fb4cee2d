import { z } from 'zod';
import { errorReportLimits } from './error-reports.js';

// The server's validation of POST /error-reports/v1 (kept apart so the console bundles no zod).
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
