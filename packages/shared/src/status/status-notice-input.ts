import { z } from 'zod';
import { statusNoticeKinds, statusNoticeSeverities } from './status.js';

// The server's validation of a notice a platform administrator posts (kept apart so the console
// bundles no zod).
export const statusNoticeInput = z.object({
  kind: z.enum(statusNoticeKinds, { error: 'Kind must be incident or maintenance' }),
  severity: z.enum(statusNoticeSeverities, { error: 'Severity must be minor or major' }),
  title: z
    .string({ error: 'Title is required' })
    .trim()
    .min(1, 'Title is required')
    .max(200, 'Title must be at most 200 characters'),
  message: z.string().trim().max(5000, 'Message must be at most 5000 characters').default(''),
});
