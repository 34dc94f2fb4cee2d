// How a device runs the agent's Node: a young generation of 1 MB semi-spaces instead of 16, V8
// favouring memory over speed, and one V8 worker thread. The agent mostly waits on sockets, so
// this costs it nothing measurable and keeps it several MB smaller resident (`npm run bench`,
// "Agent footprint"). The package's launcher line and `npm run device` pass them.
export const agentNodeFlags = [
  '--max-semi-space-size=1',
  '--optimize-for-size',
  '--v8-pool-size=1',
] as const;
