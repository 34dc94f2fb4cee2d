import type { PermissionRef } from '../permissions/permission-ref.js';

// What the console's batch actions on fleets need on every selected fleet:
// the /v7 writes they make (PATCH needs "update", DELETE "delete") are checked by the server
// against the same permission table.
export type FleetBatchAction = 'rename' | 'deviceType' | 'delete';

export const fleetBatchActionPermissions: Record<FleetBatchAction, PermissionRef> = {
  rename: { resource: 'application', action: 'update' },
  deviceType: { resource: 'application', action: 'update' },
  delete: { resource: 'application', action: 'delete' },
};
