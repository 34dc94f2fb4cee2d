import type { ResourceDefinition } from '../model-types.js';
import {
  bool,
  createdAt,
  date,
  id,
  integer,
  modifiedAt,
  ref,
  shortText,
  text,
} from './field-kinds.js';
import { applicationOfDevice } from './sql-helpers.js';

// Alert rules and the alerts they raise (features/alerts). Flotilla's own resources, named so
// they cannot collide with balena's: a rule belongs to an organization (its administrators write
// it, its members read it); an alert is read by whoever may read its device.
export const alertResources: Record<string, ResourceDefinition> = {
  flotilla_alert_rule: {
    fields: {
      id,
      created_at: createdAt,
      modified_at: modifiedAt,
      belongs_to__organization: ref('organization', 'owns__flotilla_alert_rule', {
        required: true,
        createOnly: true,
      }),
      applies_to__application: ref('application', 'is_watched_by__flotilla_alert_rule'),
      name: shortText({ required: true }),
      condition: text({ required: true, maxLength: 20 }),
      metric: text({ maxLength: 20 }),
      threshold: integer(),
      pattern: text({ maxLength: 200 }),
      for_minutes: integer(),
      repeat_interval_minutes: integer(),
      is_enabled: bool(),
      is_silenced_until__date: date(),
    },
    scope: { organization: (row) => `${row}."belongs_to__organization"` },
  },
  flotilla_alert: {
    fields: {
      id,
      created_at: createdAt,
      is_raised_by__flotilla_alert_rule: ref('flotilla_alert_rule', 'raised__flotilla_alert', {
        readOnly: true,
      }),
      device: ref('device', 'flotilla_alert', { readOnly: true }),
      status: text({ readOnly: true }),
      started_at: date({ readOnly: true }),
      resolved_at: date({ readOnly: true }),
      last_notified_at: date({ readOnly: true }),
      detail: text({ readOnly: true }),
    },
    scope: {
      application: (row) => applicationOfDevice(`${row}."device"`, row),
      device: (row) => `${row}."device"`,
    },
    readOnly: true,
  },
};
