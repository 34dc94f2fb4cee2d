import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { useSession } from '../../api/session/useSession.js';
import { fetchMoveData, moveMessages, moveOptions } from './move-targets.js';

type MovingDevice = { deviceType: string; applicationId: number };

// The fleets the user sees, with what the move rules need; shared by the fleet picker and the
// Action menu (one cached answer per device-type set).
export const useMoveData = (deviceTypes: readonly string[], enabled = true) => {
  const client = useClient();
  const userId = useSession()?.userId ?? 0;
  const types = [...new Set(deviceTypes)].sort();
  return useQuery({
    queryKey: ['applications', 'move-targets', userId, types],
    queryFn: () => fetchMoveData(client, userId, types),
    enabled: enabled && userId > 0,
  });
};

// Why "Move device" cannot run on these devices: no fleet takes them (seed 001 section 8 "No
// applications with compatible arch"). Null while unknown (not asked yet, loading, failed):
// the dialog then says what it finds.
export const useMoveBlock = (devices: readonly MovingDevice[], enabled: boolean): string | null => {
  const data = useMoveData(
    devices.map((device) => device.deviceType),
    enabled && devices.length > 0,
  );
  if (!enabled || !data.data || devices.length === 0) return null;
  const anyTarget = moveOptions(data.data, devices).some((option) => option.block === null);
  return anyTarget ? null : moveMessages.noTargets;
};
