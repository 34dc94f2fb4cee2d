import { useMutation } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import type { FleetDetail } from '../../fleet/api-fleet-detail.js';
import { useLeaveFleet } from '../../fleet/leave-fleet.js';

// Deletes the user's own direct membership of the fleet, then leaves it.
export const useRemoveAccess = (fleet: FleetDetail, membershipId: number) => {
  const client = useClient();
  const leave = useLeaveFleet(fleet);
  return useMutation({
    // The screen shows this error itself.
    meta: { inlineError: true },
    mutationFn: async () => {
      await client.pine.delete({ resource: 'user_application_membership', id: membershipId });
    },
    onSuccess: leave,
  });
};
