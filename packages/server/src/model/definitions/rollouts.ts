import type { ResourceDefinition } from '../model-types.js';
import { bool, date, id, integer, json, ref, text } from './field-kinds.js';
import { alias, lookup } from './sql-helpers.js';

// Staged rollouts (features/rollouts), read-only on /v7: they change only through the rollout's
// decisions (/rollouts/v1: start, pause, resume, skip-gate, abort) and the scheduler. Flotilla's
// own resources, named so they cannot collide with balena's, readable by whoever has a role on
// the rollout's fleet. None adds a navigation to balena's resources.

const readOnly = { readOnly: true } as const;

// The fleet of a wave, enrolled device or event, through its rollout.
const fleetOfRollout = (row: string): string =>
  lookup('flotilla_rollout', 'application', `${row}."rollout"`, alias('ro', row));

const ofRollout = (reverse: string) => ref('flotilla_rollout', reverse, readOnly);

export const rolloutResources: Record<string, ResourceDefinition> = {
  flotilla_rollout: {
    fields: {
      id,
      application: ref('application', undefined, readOnly),
      from_release: ref('release', undefined, readOnly),
      target_release: ref('release', undefined, readOnly),
      status: text(readOnly),
      gates: json(readOnly),
      // The position of the wave in progress (0 before the first has started).
      current_wave: integer(readOnly),
      halt_reason: text(readOnly),
      rolled_back: bool(readOnly),
      started_by: ref('user', undefined, readOnly),
      created_at: date(readOnly),
      finished_at: date(readOnly),
    },
    scope: { application: (row) => `${row}."application"` },
    readOnly: true,
  },
  flotilla_rollout_wave: {
    fields: {
      id,
      rollout: ofRollout('flotilla_rollout_wave'),
      position: integer(readOnly),
      spec: json(readOnly),
      status: text(readOnly),
      started_at: date(readOnly),
      finished_at: date(readOnly),
      skip_reason: text(readOnly),
    },
    alternateKeys: [['rollout', 'position']],
    scope: { application: fleetOfRollout },
    readOnly: true,
  },
  flotilla_rollout_device: {
    fields: {
      id,
      rollout: ofRollout('flotilla_rollout_device'),
      device: ref('device', undefined, readOnly),
      wave: integer(readOnly),
      state: text(readOnly),
      reason: text(readOnly),
      healthy_since: date(readOnly),
      problem_since: date(readOnly),
      updated_at: date(readOnly),
    },
    alternateKeys: [['rollout', 'device']],
    scope: { application: fleetOfRollout },
    readOnly: true,
  },
  flotilla_rollout_event: {
    fields: {
      id: { type: 'bigint', readOnly: true },
      rollout: ofRollout('flotilla_rollout_event'),
      at: date(readOnly),
      kind: text(readOnly),
      message: text(readOnly),
      by_user: ref('user', undefined, readOnly),
    },
    scope: { application: fleetOfRollout },
    readOnly: true,
  },
};
