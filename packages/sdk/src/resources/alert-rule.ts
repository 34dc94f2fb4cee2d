import type { AlertCondition, AlertMetric } from '@flotilla/shared/alerts/alert-rules';
import type { Application } from './application.js';
import type { Device } from './device.js';
import type { ToOne } from './field-types.js';
import type { Organization } from './organization.js';

// Flotilla's flotilla_alert_rule: what raises an alert on an organization's devices.
export type FlotillaAlertRule = {
  id: number;
  created_at: string;
  modified_at: string;
  name: string;
  condition: AlertCondition;
  metric: AlertMetric | null;
  threshold: number | null;
  // A log line rule's text (a case-insensitive substring).
  pattern: string | null;
  for_minutes: number;
  repeat_interval_minutes: number;
  is_enabled: boolean;
  is_silenced_until__date: string | null;
  belongs_to__organization: ToOne<Organization>;
  applies_to__application: ToOne<Application> | null;
};

export type FlotillaAlertRuleWrite = {
  name: string;
  condition: AlertCondition;
  metric: AlertMetric | null;
  threshold: number | null;
  pattern: string | null;
  for_minutes: number;
  repeat_interval_minutes: number;
  is_enabled: boolean;
  is_silenced_until__date: string | null;
  belongs_to__organization: number;
  applies_to__application: number | null;
};

// Flotilla's flotilla_alert: one rule's alert on one device, firing or resolved.
export type FlotillaAlert = {
  id: number;
  created_at: string;
  last_notified_at: string | null;
  status: 'firing' | 'resolved';
  started_at: string;
  resolved_at: string | null;
  detail: string;
  device: ToOne<Device>;
  is_raised_by__flotilla_alert_rule: ToOne<FlotillaAlertRule>;
};
