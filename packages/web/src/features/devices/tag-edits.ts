import type { DeviceTag } from '../../device/device-rows.js';

// The manage-tags dialog edits the tags of one device or of a selection at once: each key holds
// one value for all of them (or keeps each device's own when untouched), or is removed.

export type TagEdit = { key: string; value: string | null; removed: boolean };

// The tag keys of the devices with their shared value, or null where values differ.
export const tagRows = (devices: readonly { device_tag: readonly DeviceTag[] }[]): TagEdit[] => {
  const values = new Map<string, Set<string>>();
  for (const device of devices) {
    for (const tag of device.device_tag) {
      const set = values.get(tag.tag_key) ?? new Set<string>();
      set.add(tag.value);
      values.set(tag.tag_key, set);
    }
  }
  return [...values.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, set]) => ({
      key,
      value: set.size === 1 ? ([...set][0] ?? '') : null,
      removed: false,
    }));
};

export type TagWrite =
  | { kind: 'create'; device: number; key: string; value: string }
  | { kind: 'update'; tagId: number; value: string }
  | { kind: 'delete'; tagId: number };

// The writes that bring one device to the edited tags. A null value leaves each device's own.
export const tagWritesFor = (
  device: { id: number; device_tag: readonly DeviceTag[] },
  edits: readonly TagEdit[],
): TagWrite[] =>
  edits.flatMap((edit): TagWrite[] => {
    const current = device.device_tag.find((tag) => tag.tag_key === edit.key);
    if (edit.removed) return current ? [{ kind: 'delete', tagId: current.id }] : [];
    if (edit.value === null) return [];
    if (!current) return [{ kind: 'create', device: device.id, key: edit.key, value: edit.value }];
    return current.value === edit.value
      ? []
      : [{ kind: 'update', tagId: current.id, value: edit.value }];
  });

// Checks of a new key: not empty, no duplicate.
export const tagKeyProblem = (key: string, edits: readonly TagEdit[]): string | null => {
  if (key.trim() === '') return 'The tag key is required';
  if (edits.some((edit) => edit.key === key && !edit.removed)) return 'This tag key already exists';
  return null;
};
