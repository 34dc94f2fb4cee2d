import { allServices, type ServiceOption } from './variable-model.js';
import type { ServiceChoice } from './VariableDialog.js';

export const serviceNameOf =
  (services: readonly ServiceOption[]) =>
  (serviceId: number): string =>
    serviceId === allServices
      ? 'All services'
      : (services.find((service) => service.id === serviceId)?.name ?? `Service ${serviceId}`);

// The services a new variable may target: those of the release the fleet should run (all of
// them while it has none), after "All services".
export const serviceChoices = (
  services: readonly ServiceOption[],
  allowFleetWide: boolean,
  allowServices: boolean,
): ServiceChoice[] => {
  const inRelease = services.filter((service) => service.inRelease);
  const offered = inRelease.length > 0 ? inRelease : services;
  return [
    ...(allowFleetWide ? [{ id: allServices, name: 'All services' }] : []),
    ...(allowServices ? offered.map((service) => ({ id: service.id, name: service.name })) : []),
  ];
};
