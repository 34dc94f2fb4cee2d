import { z } from 'zod';
import type { AgentProfile } from './agent-profile-rules.js';

// The `agent_profile` of a state report, as the server validates it (agent-profile-rules.ts says
// what it means).
export const agentProfile = z.object({
  manages_containers: z.boolean(),
  architecture: z.string().max(50).nullable(),
  board: z.string().max(255).nullable(),
  honoured_config: z.array(z.string().max(255)).max(200),
}) satisfies z.ZodType<AgentProfile>;
