import { z } from 'zod';
import { usageEventsPerPost, usageKinds, usageNamePattern } from './usage.js';

// The server's validation of POST /analytics/v1/events (kept apart so the console bundles no zod).
export const usageEvents = z.object({
  events: z
    .array(
      z.object({
        kind: z.enum(usageKinds, { error: 'Kind must be page or feature' }),
        name: z.string().regex(usageNamePattern, 'Name must be a route pattern or a feature name'),
      }),
    )
    .min(1, 'At least one event is required')
    .max(usageEventsPerPost, `At most ${usageEventsPerPost} events per request`),
});
