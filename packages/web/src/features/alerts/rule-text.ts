import {
  type AlertCondition,
  alertMetricLabels,
  alertMetricUnits,
} from '@flotilla/shared/alerts/alert-rules';
import type { AlertRuleRow } from './api.js';

export const conditionLabels: Record<AlertCondition, string> = {
  'device offline': 'Device offline',
  'metric above': 'Metric above',
  'update failed': 'Update failed',
  'log line': 'Log line containing a text',
};

// A rule's condition in words ("CPU temperature above 80 °C for 5 minutes").
export const conditionText = (rule: AlertRuleRow): string => {
  const minutes = `${rule.for_minutes} minute${rule.for_minutes === 1 ? '' : 's'}`;
  if (rule.condition === 'device offline') return `Offline for ${minutes}`;
  if (rule.condition === 'update failed') return 'Update failed';
  if (rule.condition === 'log line')
    return `Log line containing "${rule.pattern ?? ''}" within ${minutes}`;
  const metric = rule.metric;
  const label = metric === null ? 'Metric' : alertMetricLabels[metric];
  return `${label} above ${rule.threshold ?? '?'}${metric === null ? '' : alertMetricUnits[metric]} for ${minutes}`;
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
