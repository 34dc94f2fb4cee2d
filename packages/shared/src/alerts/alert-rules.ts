// Alert rules (features/alerts): what raises an alert on an organization's devices. Shared by the
// server's checks and the console's form.
export const alertConditions = [
  'device offline',
  'metric above',
  'update failed',
  'log line',
] as const;
export type AlertCondition = (typeof alertConditions)[number];

// Usage metrics are percentages; the temperature is in degrees Celsius.
export const alertMetrics = [
  'cpu usage',
  'cpu temperature',
  'memory usage',
  'storage usage',
] as const;
export type AlertMetric = (typeof alertMetrics)[number];

// Names as people write them (CPU, not cpu), and the unit of each metric's readings: the console
// and the alerts' own texts (mails, webhooks, the device page) say them the same way.
export const alertMetricLabels: Record<AlertMetric, string> = {
  'cpu usage': 'CPU usage',
  'cpu temperature': 'CPU temperature',
  'memory usage': 'Memory usage',
  'storage usage': 'Storage usage',
};
export const alertMetricUnits: Record<AlertMetric, string> = {
  'cpu usage': '%',
  'memory usage': '%',
  'storage usage': '%',
  'cpu temperature': ' °C',
};

export const alertRuleLimits = {
  // Rules per organization: each is evaluated on every sweep.
  perOrganization: 50,
  forMinutes: { min: 1, max: 10_080, default: 5 },
  repeatIntervalMinutes: { min: 5, max: 10_080, default: 240 },
  threshold: { min: 0, max: 1000 },
  // A log rule's text: a case-insensitive substring, never a regular expression (a pattern can
  // then not make the sweep backtrack), of bounded length.
  pattern: { maxLength: 200 },
} as const;

export const alertRuleMessages = {
  condition: `Condition must be one of: ${alertConditions.join(', ')}`,
  metric: `Metric must be one of: ${alertMetrics.join(', ')}`,
  metricNeeded: 'A metric rule needs a metric and a threshold',
  metricOnly: 'Only a metric rule has a metric and a threshold',
  threshold: `Threshold must be a whole number from ${alertRuleLimits.threshold.min} to ${alertRuleLimits.threshold.max}`,
  forMinutes: `For minutes must be a whole number from ${alertRuleLimits.forMinutes.min} to ${alertRuleLimits.forMinutes.max}`,
  repeatInterval: `Repeat interval must be a whole number of minutes from ${alertRuleLimits.repeatIntervalMinutes.min} to ${alertRuleLimits.repeatIntervalMinutes.max}`,
  fleetOfOrganization: "The fleet must be one of the rule's organization",
  tooMany: `An organization has at most ${alertRuleLimits.perOrganization} alert rules`,
  nameRequired: 'Name is required',
  patternNeeded: 'A log line rule needs the text to look for',
  patternOnly: 'Only a log line rule has a text to look for',
  pattern: `The text to look for must be 1 to ${alertRuleLimits.pattern.maxLength} characters on one line`,
} as const;

const isOneOf = <T extends string>(list: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && list.some((entry) => entry === value);

const wholeIn = (value: unknown, range: { min: number; max: number }): boolean =>
  typeof value === 'number' && Number.isInteger(value) && value >= range.min && value <= range.max;

export type AlertRuleFields = {
  name?: unknown;
  condition?: unknown;
  metric?: unknown;
  threshold?: unknown;
  for_minutes?: unknown;
  repeat_interval_minutes?: unknown;
  pattern?: unknown;
};

// A log rule's text as stored: one line, not blank, bounded.
const patternProblem = (pattern: unknown): string | null => {
  if (pattern === null || pattern === undefined) return alertRuleMessages.patternNeeded;
  if (
    typeof pattern !== 'string' ||
    pattern.trim() === '' ||
    pattern.length > alertRuleLimits.pattern.maxLength ||
    /[\r\n]/.test(pattern)
  ) {
    return alertRuleMessages.pattern;
  }
  return null;
};

// The first problem of a rule as it would be stored (a new one, or an old one with a change
// applied), as the message to show; null when it is whole.
export const alertRuleProblem = (rule: AlertRuleFields): string | null => {
  if (typeof rule.name !== 'string' || rule.name.trim() === '')
    return alertRuleMessages.nameRequired;
  if (!isOneOf(alertConditions, rule.condition)) return alertRuleMessages.condition;
  const hasMetric = rule.metric !== null && rule.metric !== undefined;
  const hasThreshold = rule.threshold !== null && rule.threshold !== undefined;
  if (rule.condition === 'metric above') {
    if (!hasMetric || !hasThreshold) return alertRuleMessages.metricNeeded;
    if (!isOneOf(alertMetrics, rule.metric)) return alertRuleMessages.metric;
    if (!wholeIn(rule.threshold, alertRuleLimits.threshold)) return alertRuleMessages.threshold;
  } else if (hasMetric || hasThreshold) {
    return alertRuleMessages.metricOnly;
  }
  if (rule.condition === 'log line') {
    const problem = patternProblem(rule.pattern);
    if (problem !== null) return problem;
  } else if (rule.pattern !== null && rule.pattern !== undefined) {
    return alertRuleMessages.patternOnly;
  }
  if (rule.for_minutes !== undefined && !wholeIn(rule.for_minutes, alertRuleLimits.forMinutes)) {
    return alertRuleMessages.forMinutes;
  }
  if (
    rule.repeat_interval_minutes !== undefined &&
    !wholeIn(rule.repeat_interval_minutes, alertRuleLimits.repeatIntervalMinutes)
  ) {
    return alertRuleMessages.repeatInterval;
  }
  return null;
};
