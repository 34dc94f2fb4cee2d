import type { ActionParams, DeviceAction } from '@flotilla/shared/cloudlink/messages';
import type { ContainerAction } from '../engine/container-actions.js';
import { type ActionOutcome, lockedOutcome, ok } from './device-runtime.js';

// What a runtime (simulated or the real host) does for the actions the cloudlink asks of the
// device; dispatchAction maps each action to these and shapes the answer the same way for both.
export type ActionPorts = {
  // Actions an update lock refuses unless forced.
  lockedActions: readonly DeviceAction[];
  locked(force: boolean): boolean | Promise<boolean>;
  // A lock refused the action.
  refused?(action: DeviceAction): void;
  log(message: string): void;
  blink(): void | Promise<void>;
  // Fetch the target state now; `force` re-applies it through update locks.
  pollNow(force: boolean): void;
  // What the supervisor's GET /v1/device answers.
  deviceState(): unknown;
  checks(params: ActionParams): Promise<unknown>;
  diagnose(): Promise<unknown>;
  // The fleet app's services: restart them all, start, stop or restart one, purge their data.
  services(action: ContainerAction, params: ActionParams): Promise<ActionOutcome>;
};

// The supervisor's power and update endpoints answer { Data: 'OK', Error: null }.
const accepted = (): ActionOutcome => ok({ Data: 'OK', Error: null });

export const dispatchAction = async (
  ports: ActionPorts,
  action: DeviceAction,
  params: ActionParams,
): Promise<ActionOutcome> => {
  const force = params.force === true;
  if (ports.lockedActions.includes(action) && (await ports.locked(force))) {
    ports.refused?.(action);
    return lockedOutcome();
  }
  switch (action) {
    case 'ping':
      return ok();
    case 'blink':
      await ports.blink();
      return ok();
    case 'update':
      ports.pollNow(force);
      return accepted();
    case 'reboot':
      ports.log('Rebooting');
      return { ...accepted(), then: 'reboot' };
    case 'shutdown':
      ports.log('Shutting down');
      return { ...accepted(), then: 'shutdown' };
    case 'device-state':
      return ok(ports.deviceState());
    case 'checks':
      return ok(await ports.checks(params));
    case 'diagnose':
      return ok(await ports.diagnose());
    case 'purge':
    case 'restart-services':
    case 'start-service':
    case 'stop-service':
    case 'restart-service':
      return ports.services(action, params);
  }
};
