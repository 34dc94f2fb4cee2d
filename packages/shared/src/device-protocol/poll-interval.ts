// How often a device polls for its target state. The fleet or device config variable sets it in
// milliseconds; the BALENA_ name wins over the legacy RESIN_ one (it sorts first, which the
// server's SQL relies on too).
export const pollIntervalVarNames = [
  'BALENA_SUPERVISOR_POLL_INTERVAL',
  'RESIN_SUPERVISOR_POLL_INTERVAL',
] as const;

export const pollIntervalLimits = {
  // balena's default BALENA_SUPERVISOR_POLL_INTERVAL (10 min), when no variable sets one.
  defaultMs: 600_000,
  // The server never assumes a device polls more often than this, so it tells none to.
  minimumMs: 10_000,
  // The largest value the int4 column holds.
  maximumMs: 2_147_483_647,
} as const;

// A value the rule reads as a number: up to 12 digits (the same test the server's SQL makes).
export const pollIntervalPattern = '^[0-9]{1,12}$';

// The poll-interval rule: a variable's value as whole milliseconds, raised to the minimum and
// capped at the maximum; undefined when the value is not a number at all. The server applies it
// to the config it serves and the heartbeat windows; the agent to the config it received.
export const clampPollInterval = (value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (!new RegExp(pollIntervalPattern).test(trimmed)) return undefined;
  return Math.min(
    Math.max(Number(trimmed), pollIntervalLimits.minimumMs),
    pollIntervalLimits.maximumMs,
  );
};

// The value of the variable that sets the interval in a device's config, if any.
export const pollIntervalVariable = (
  config: Readonly<Record<string, string>>,
): string | undefined => config[pollIntervalVarNames[0]] ?? config[pollIntervalVarNames[1]];
