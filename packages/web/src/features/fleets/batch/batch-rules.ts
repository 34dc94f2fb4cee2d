import { errorText } from '@flotilla/sdk/errors';
import {
  type FleetBatchAction,
  fleetBatchActionPermissions,
} from '@flotilla/shared/fleets/fleet-action-permissions';
import { fleetPermissionsOf } from '@flotilla/shared/permissions/fleet-access';
import { grants } from '@flotilla/shared/permissions/permissions';
import { deniedReason } from '../../../fleet/fleet-role.js';
import { legacyRenameReason } from '../fleet/RenameSetting.js';
import type { BatchFleet } from './batch-fleets.js';
import type { Outcome } from '../../../ui/run-with-concurrency.js';

const namedLimit = 3;

// "a, b, c and 2 more" (the toolbar's tooltips and toasts stay one line long).
export const namesList = (names: readonly string[]): string => {
  const shown = names.slice(0, namedLimit);
  const more = names.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  if (shown.length <= 1) return shown[0] ?? '';
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1] ?? ''}`;
};

export type ArchitectureCheck =
  { ok: true; architecture: { id: number; slug: string } } | { ok: false; reason: string };

// The default device type of several fleets changes together only when they share one CPU
// architecture (the picker lists that architecture's device types), so their releases keep running.
export const sharedArchitecture = (fleets: readonly BatchFleet[]): ArchitectureCheck => {
  const unknown = fleets.filter((fleet) => fleet.architecture === null);
  if (unknown.length > 0)
    return {
      ok: false,
      reason: `CPU architecture not found for ${namesList(unknown.map((fleet) => fleet.name))}`,
    };
  const bySlug = new Map<string, { id: number; slug: string; names: string[] }>();
  for (const fleet of fleets) {
    if (!fleet.architecture) continue;
    const entry = bySlug.get(fleet.architecture.slug) ?? { ...fleet.architecture, names: [] };
    entry.names.push(fleet.name);
    bySlug.set(fleet.architecture.slug, entry);
  }
  const groups = [...bySlug.values()];
  const [only] = groups;
  if (!only) return { ok: false, reason: 'No fleets selected' };
  if (groups.length === 1) return { ok: true, architecture: { id: only.id, slug: only.slug } };
  const detail = groups.map((group) => `${group.slug}: ${namesList(group.names)}`).join('; ');
  return {
    ok: false,
    reason: `The selected fleets have different CPU architectures (${detail}). Select fleets of one architecture to change their default device type together.`,
  };
};

export type BatchGates = Record<FleetBatchAction, string | null>;

// Null when the action may run on the whole selection, else why not (the disabled button's
// tooltip). A fleet the user may not change blocks the action and is named.
export const batchGates = (
  fleets: readonly BatchFleet[] | undefined,
  selectedCount: number,
  loading: { pending: boolean; error: unknown },
): BatchGates => {
  const blockedForAll = (reason: string): BatchGates => ({
    rename: reason,
    deviceType: reason,
    delete: reason,
  });
  if (selectedCount === 0) return blockedForAll('Nothing selected');
  if (loading.error)
    return blockedForAll(
      `Could not check your permissions: ${errorText(loading.error) ?? 'unknown error'}`,
    );
  if (loading.pending || !fleets) return blockedForAll('Checking your permissions…');
  const permissionReason = (action: FleetBatchAction): string | null => {
    const { resource, action: verb } = fleetBatchActionPermissions[action];
    const denied = fleets.filter(
      (fleet) => !grants(fleetPermissionsOf(fleet.roles), resource, verb),
    );
    if (denied.length === 0) return null;
    return `Not allowed for ${namesList(denied.map((fleet) => fleet.name))}: ${deniedReason(resource, verb)}`;
  };
  const legacy = fleets.find((fleet) => fleet.isLegacy);
  return {
    rename:
      selectedCount !== 1
        ? 'Select exactly one to rename'
        : (permissionReason('rename') ?? (legacy ? legacyRenameReason : null)),
    deviceType: permissionReason('deviceType'),
    delete: permissionReason('delete'),
  };
};

export type BatchToast = { kind: 'success' | 'warning' | 'error'; text: string };

// All done: success; some failed: a warning with how many and why ("Operation failed for N of
// the selected items with {message}"); all failed: an error.
export const outcomeToast = (
  outcomes: readonly Outcome<BatchFleet, unknown>[],
  texts: { done: string; failed: string; items: string },
): BatchToast => {
  const failures = outcomes.filter((outcome) => !outcome.ok);
  if (failures.length === 0) return { kind: 'success', text: texts.done };
  const reasons = [
    ...new Set(
      failures.map((outcome) => (outcome.ok ? '' : (errorText(outcome.error) ?? 'unknown error'))),
    ),
  ];
  const why = reasons.slice(0, 2).join('; ');
  if (failures.length === outcomes.length)
    return { kind: 'error', text: `${texts.failed}: ${why}` };
  const names = namesList(failures.map((outcome) => outcome.item.name));
  return {
    kind: 'warning',
    text: `Operation failed for ${failures.length} of the ${outcomes.length} selected ${texts.items} (${names}) with ${why}`,
  };
};
