import type { ActionParams, DeviceAction } from '@flotilla/shared/cloudlink/messages';
import { type ActionOutcome, failure, lockedOutcome, ok } from '../runtime/device-runtime.js';
import type { TargetService } from '../target-types.js';
import type { ContainerApp } from './container-app.js';
import type { ContainerEngine, ManagedContainer } from './container-engine.js';

export type ContainerAction =
  'restart-services' | 'start-service' | 'stop-service' | 'restart-service' | 'purge';

const containerActions: readonly DeviceAction[] = [
  'restart-services',
  'start-service',
  'stop-service',
  'restart-service',
  'purge',
];

export const isContainerAction = (action: DeviceAction): action is ContainerAction =>
  containerActions.includes(action);

export type ContainerActionContext = {
  app: ContainerApp;
  engine: ContainerEngine;
  // The target release's services: an action names one by its image id or its name.
  services: readonly TargetService[];
  // Whether an update lock blocks a change right now (false when forced).
  locked(force: boolean): Promise<boolean>;
  log(message: string, serviceId?: number): void;
  // Without a setting, each container's own stop_grace_period (or the engine's default).
  stopTimeoutSeconds?: number;
};

// The lines the supervisor logs before each container action.
const actionLine = { start: 'Starting', stop: 'Stopping', restart: 'Restarting' } as const;

const onContainers = async (
  context: ContainerActionContext,
  containers: readonly ManagedContainer[],
  what: keyof typeof actionLine,
): Promise<ActionOutcome> => {
  const { engine, stopTimeoutSeconds } = context;
  for (const container of containers) {
    context.log(
      `${actionLine[what]} service '${container.service}'`,
      container.serviceId ?? undefined,
    );
    if (what === 'start') await engine.start(container.id);
    else if (what === 'stop') await engine.stop(container.id, stopTimeoutSeconds);
    else await engine.restart(container.id, stopTimeoutSeconds);
  }
  // The app reads the containers again and reports what the action did.
  context.app.kick();
  // The supervisor's restart and service endpoints answer a bare OK.
  return ok();
};

// What the supervisor's API does to the fleet app's containers, for real and simulated devices
// alike: restart them all, start, stop or restart one service, purge the app's data. Everything
// but starting a service waits for the update lock unless forced.
export const runContainerAction = async (
  context: ContainerActionContext,
  action: ContainerAction,
  params: ActionParams,
): Promise<ActionOutcome> => {
  if (action !== 'start-service' && (await context.locked(params.force === true))) {
    context.log(`Updates are locked: ${action} refused (use force to override the lock)`);
    return lockedOutcome();
  }
  switch (action) {
    case 'purge':
      await context.app.purge();
      return ok({ Data: 'OK', Error: '' });
    case 'restart-services':
      context.log('Restarting services');
      return onContainers(context, context.app.containers, 'restart');
    case 'start-service':
    case 'stop-service':
    case 'restart-service': {
      if (params.imageId === undefined && params.serviceName === undefined) {
        return failure(400, 'imageId or serviceName is required');
      }
      const name =
        params.serviceName ??
        context.services.find((service) => service.imageId === params.imageId)?.name;
      const containers = name === undefined ? [] : context.app.containersOf(name);
      if (containers.length === 0) return failure(404, 'Service not found');
      const what =
        action === 'start-service' ? 'start' : action === 'stop-service' ? 'stop' : 'restart';
      return onContainers(context, containers, what);
    }
  }
};
