import type { z } from 'zod';
import { ApiError } from '../errors/api-error.js';

const describeIssue = (issue: z.core.$ZodIssue): string => {
  const field = issue.path.map(String).join('.');
  return field ? `${field}: ${issue.message}` : issue.message;
};

// Validates a request body (or query) at the edge; a failure is a 400 naming the offending field.
export const parseBody = <Schema extends z.ZodType>(
  schema: Schema,
  body: unknown,
): z.output<Schema> => {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  throw new ApiError('bad_request', result.error.issues.map(describeIssue).join('; '));
};

// Row ids are PostgreSQL integers: a larger number can name no row, and PostgreSQL refuses it.
export const maxRowId = 2_147_483_647;
