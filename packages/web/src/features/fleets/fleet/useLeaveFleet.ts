import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { classLabels } from '../../../fleet/class-names.js';
import type { FleetDetail } from '../../../fleet/api-fleet-detail.js';
import { fleetKeys } from '../../../fleet/query-keys.js';

// After the application is gone for the user (deleted, access removed): back to the list, with
// the application's own queries dropped so nothing polls a row that no longer answers.
export const useLeaveFleet = (application: FleetDetail) => {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return async (): Promise<void> => {
    await navigate(classLabels[application.is_of__class].path);
    queryClient.removeQueries({ queryKey: fleetKeys.detail(application.id) });
    await queryClient.invalidateQueries({ queryKey: ['applications'] });
  };
};
