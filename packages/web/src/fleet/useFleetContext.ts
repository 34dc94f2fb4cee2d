import { useOutletContext } from 'react-router';
import type { FleetDetail } from './api-fleet-detail.js';

export type FleetContext = { fleet: FleetDetail };

// The fleet loaded by FleetLayout, for its child pages.
export const useFleetContext = (): FleetContext => useOutletContext<FleetContext>();
