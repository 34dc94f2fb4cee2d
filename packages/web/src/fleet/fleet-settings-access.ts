import type { FleetRoleState } from './api-fleet-role.js';

// Who reaches a fleet's settings: those who may change the fleet, and members with a direct role,
// who find "Remove my access" there (leaving the fleet is open to every role).
export const opensFleetSettings = (access: FleetRoleState): boolean =>
  access.can('application', 'update') || access.directMembershipId !== null;
