import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { FleetDetail } from './api-fleet-detail.js';
import { classLabels } from './class-names.js';
import { fleetKeys } from './query-keys.js';

// After the fleet is gone for the user (deleted, access removed): back to the list, with the
// fleet's own queries dropped so nothing polls a row that no longer answers.
export const useLeaveFleet = (fleet: FleetDetail) => {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return async (): Promise<void> => {
    await navigate(classLabels[fleet.is_of__class].path);
    queryClient.removeQueries({ queryKey: fleetKeys.detail(fleet.id) });
    await queryClient.invalidateQueries({ queryKey: fleetKeys.all });
  };
};
