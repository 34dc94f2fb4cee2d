import { useState } from 'react';
import type { DeviceListRow } from '../../device/device-rows.js';

// Selected devices by id; the selection survives paging and filtering. `selected` holds the
// freshest copy of each selected device from the rows on screen (the table refreshes every 8 s).
export const useDeviceSelection = (rows: readonly DeviceListRow[]) => {
  const [selection, setSelection] = useState<ReadonlyMap<number, DeviceListRow>>(new Map());
  const toggle = (device: DeviceListRow): void =>
    setSelection((current) => {
      const next = new Map(current);
      if (next.has(device.id)) next.delete(device.id);
      else next.set(device.id, device);
      return next;
    });
  const togglePage = (select: boolean): void =>
    setSelection((current) => {
      const next = new Map(current);
      for (const row of rows) {
        if (select) next.set(row.id, row);
        else next.delete(row.id);
      }
      return next;
    });
  const remove = (ids: readonly number[]): void =>
    setSelection((current) => {
      const next = new Map(current);
      for (const id of ids) next.delete(id);
      return next;
    });
  const selected = [...selection.values()].map(
    (device) => rows.find((row) => row.id === device.id) ?? device,
  );
  return {
    ids: new Set(selection.keys()),
    selected,
    toggle,
    togglePage,
    remove,
    clear: () => setSelection(new Map()),
  };
};
