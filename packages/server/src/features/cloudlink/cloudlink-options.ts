// Timings of the cloudlink; production uses the defaults, tests shorten them.
export type CloudlinkOptions = {
  // How long an action waits for the device's answer unless the caller says otherwise.
  actionTimeoutMs: number;
  // WebSocket ping period; a connection that missed the previous pong is dropped.
  pingIntervalMs: number;
  // How often this process refreshes its cloudlink_node row and sweeps dead nodes' sessions.
  nodeHeartbeatMs: number;
  // A node not seen for this long is dead: its sessions no longer count as connected.
  nodeStaleAfterMs: number;
  // Devices told per tick that their target changed, and the tick (target-nudges.ts).
  targetNudgeBatch: number;
  targetNudgeIntervalMs: number;
};

// The SDK gives container actions 50 s before it gives up itself, so waiting longer is useless.
export const maxActionTimeoutMs = 50_000;

export const defaultCloudlinkOptions: CloudlinkOptions = {
  actionTimeoutMs: 30_000,
  pingIntervalMs: 20_000,
  nodeHeartbeatMs: 10_000,
  nodeStaleAfterMs: 30_000,
  targetNudgeBatch: 500,
  targetNudgeIntervalMs: 250,
};

export const clampTimeout = (timeoutMs: number): number =>
  Math.min(Math.max(Math.round(timeoutMs), 1), maxActionTimeoutMs);
