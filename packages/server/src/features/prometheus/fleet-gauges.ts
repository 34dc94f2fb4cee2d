import { Gauge, type Registry } from 'prom-client';
import type { FleetSnapshot } from './fleet-metrics.js';

// The fleet gauges, set from one snapshot per scrape: reset first, so a fleet that was deleted or
// left the largest ones leaves no stale series.
export const createFleetGauges = (registry: Registry) => {
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Gauge<L>({ name, help, labelNames, registers: [registry] });
  const devices = gauge('flotilla_fleet_devices', 'Devices of a fleet by overall status', [
    'fleet',
    'status',
  ]);
  const updates = gauge('flotilla_fleet_update_status', 'Devices of a fleet by update status', [
    'fleet',
    'update_status',
  ]);
  const readings = gauge(
    'flotilla_fleet_device_reading',
    "Summary of a fleet's active devices' last readings (mean CPU %, mean memory and storage used as a fraction, highest temperature in °C)",
    ['fleet', 'reading'],
  );
  const totals = gauge('flotilla_installation', 'Devices and fleets of the whole installation', [
    'kind',
  ]);
  return {
    set(snapshot: FleetSnapshot): void {
      for (const each of [devices, updates, readings, totals]) each.reset();
      for (const fleet of snapshot.fleets) {
        for (const [status, n] of Object.entries(fleet.statuses)) {
          devices.set({ fleet: fleet.slug, status }, n);
        }
        for (const [status, n] of Object.entries(fleet.updateStatuses)) {
          updates.set({ fleet: fleet.slug, update_status: status }, n);
        }
        const values = {
          cpu_usage: fleet.cpuUsage,
          memory_used: fleet.memoryUsed,
          storage_used: fleet.storageUsed,
          cpu_temp: fleet.cpuTemp,
        };
        for (const [reading, value] of Object.entries(values)) {
          if (value !== null) readings.set({ fleet: fleet.slug, reading }, value);
        }
      }
      totals.set({ kind: 'devices' }, snapshot.totalDevices);
      totals.set({ kind: 'fleets' }, snapshot.totalFleets);
    },
  };
};
