import type { ActionParams, DeviceAction } from '@flotilla/shared/cloudlink/messages';
import type { Cloudlink } from '../cloudlink/register-cloudlink.js';
import { type DeviceOutcome, outcomeOf } from './action-replies.js';
import type { ActionTarget } from './action-targets.js';

// As many devices at once as the console's batch actions.
const concurrency = 50;

// Runs one action on every target and collects each device's outcome, in target order.
export const runOnDevices = async (
  cloudlink: Cloudlink,
  targets: readonly ActionTarget[],
  action: DeviceAction,
  params: (target: ActionTarget) => ActionParams,
): Promise<DeviceOutcome[]> => {
  const outcomes: DeviceOutcome[] = new Array<DeviceOutcome>(targets.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < targets.length) {
      const index = next++;
      const target = targets[index];
      if (!target) continue;
      outcomes[index] = await outcomeOf(cloudlink.sendAction(target.id, action, params(target)));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, targets.length) }, worker));
  return outcomes;
};
