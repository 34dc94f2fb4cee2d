// What a bad release does to a simulated device once it updates (the simulator's fault
// injection, so rollouts meet halts and rollbacks): its services restart in a loop, fail their
// health checks, or the device stops reaching the server.
export const updateFaults = ['crash-loop', 'failing-check', 'offline'] as const;
export type UpdateFault = (typeof updateFaults)[number];

export const isUpdateFault = (value: string): value is UpdateFault =>
  updateFaults.some((fault) => fault === value);
