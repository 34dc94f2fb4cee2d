import { errorText, FlotillaApiError } from '@flotilla/sdk/errors';
import type { ToastKind } from '../../ui/toasts.js';
import type { Outcome } from '../../ui/run-with-concurrency.js';
import { plural } from '../../device/device-format.js';
import type { ActionSpec } from './device-actions.js';

// 423: the device refused because an update lock is set; the action can be forced.
export const isUpdateLocked = (error: unknown): boolean =>
  error instanceof FlotillaApiError && error.status === 423;

export const updateLockMessage =
  'Some devices did not run the action because an update lock is set';

export type BatchReport<T> = {
  toast: { kind: ToastKind; text: string } | null;
  // Devices an update lock stopped: offered again with force.
  locked: T[];
};

// The outcome of an action on one or several devices: every device fails →
// error; some fail → warning naming how many; update-lock refusals are set apart for the force
// link rather than counted as failures. Devices that queued the action (offline) are named apart.
export const batchReport = <T extends { name: string }>(
  spec: ActionSpec,
  outcomes: readonly Outcome<T, unknown>[],
): BatchReport<T> => {
  const succeeded = outcomes.filter((outcome) => outcome.ok);
  const locked: T[] = [];
  const failures: unknown[] = [];
  for (const outcome of outcomes) {
    if (outcome.ok) continue;
    if (spec.forceable && isUpdateLocked(outcome.error)) locked.push(outcome.item);
    else failures.push(outcome.error);
  }
  const [firstFailure] = failures;
  if (failures.length === 0) {
    const queued = succeeded.filter((outcome) => outcome.value === 'queued');
    const ran = succeeded.filter((outcome) => outcome.value !== 'queued');
    const subjectOf = (some: typeof succeeded): string =>
      some.length === 1 ? (some[0]?.item.name ?? '') : plural(some.length, 'device');
    if (succeeded.length === 0) return { toast: null, locked };
    if (queued.length === 0) {
      return { toast: { kind: 'success', text: spec.done(subjectOf(ran)) }, locked };
    }
    const waits = `Queued for ${subjectOf(queued)} until ${queued.length === 1 ? 'it comes' : 'they come'} online`;
    const text = ran.length === 0 ? waits : `${spec.done(subjectOf(ran))}. ${waits}`;
    return { toast: { kind: 'success', text }, locked };
  }
  const message = errorText(firstFailure) ?? 'An error has occurred';
  if (succeeded.length === 0 && locked.length === 0) {
    return { toast: { kind: 'error', text: message }, locked };
  }
  return {
    toast: {
      kind: 'warning',
      text: `Operation failed for ${failures.length} of the selected items with ${message}`,
    },
    locked,
  };
};
