import type { AlertRuleRow } from './api.js';

const units: Record<string, string> = {
  'cpu usage': '%',
  'memory usage': '%',
  'storage usage': '%',
  'cpu temperature': ' °C',
};

// A rule's condition in words ("CPU temperature above 80 °C for 5 minutes").
export const conditionText = (rule: AlertRuleRow): string => {
  const minutes = `${rule.for_minutes} minute${rule.for_minutes === 1 ? '' : 's'}`;
  if (rule.condition === 'device offline') return `Offline for ${minutes}`;
  if (rule.condition === 'update failed') return 'Update failed';
  const metric = rule.metric ?? 'metric';
  const label = metric.charAt(0).toUpperCase() + metric.slice(1);
  return `${label} above ${rule.threshold ?? '?'}${units[metric] ?? ''} for ${minutes}`;
};

// Whether the rule notifies now, and if not why.
export const ruleStateText = (rule: AlertRuleRow, now: Date): string => {
  if (!rule.is_enabled) return 'Disabled';
  const until = rule.is_silenced_until__date;
  if (until !== null && new Date(until) > now) {
    return `Silenced until ${new Date(until).toLocaleString()}`;
  }
  return 'Enabled';
};
