import type { ReleaseReport, ServiceStatus } from './device-runtime.js';

export type SimulatedService = {
  name: string;
  id: number | null;
  imageId: number | null;
  image: string;
  wantsRunning: boolean;
  status: ServiceStatus;
  progress: number | null;
  // The variables the container runs with (what a container's `docker inspect` would show).
  environment: Readonly<Record<string, string>>;
};

// One state change of some containers; a simulated device runs steps a beat apart.
export type Step = () => void;

export type StepLog = (message: string, serviceId?: number) => void;

const shortImage = (image: string): string => {
  const digest = /@sha256:([0-9a-f]{12})/.exec(image);
  return digest ? `sha256:${digest[1]}` : image;
};

// How the supervisor names a container in its logs: "main sha256:0123456789ab".
export const serviceLabel = (service: SimulatedService): string =>
  `${service.name} ${shortImage(service.image)}`;

// Every service takes `status` and gets a system log line "<verb> service '<label>'".
const step =
  (services: SimulatedService[], status: ServiceStatus, verb: string, log: StepLog): Step =>
  () => {
    for (const service of services) {
      service.status = status;
      log(`${verb} service '${serviceLabel(service)}'`, service.id ?? undefined);
    }
  };

export const stopSteps = (
  services: SimulatedService[],
  final: ServiceStatus,
  log: StepLog,
): Step[] =>
  services.length === 0
    ? []
    : [step(services, 'Stopping', 'Killing', log), step(services, final, 'Killed', log)];

export const startSteps = (services: SimulatedService[], log: StepLog): Step[] =>
  services.length === 0
    ? []
    : [step(services, 'Starting', 'Starting', log), step(services, 'Running', 'Started', log)];

export const installSteps = (services: SimulatedService[], log: StepLog): Step[] => [
  step(services, 'Installing', 'Installing', log),
  step(services, 'Installed', 'Installed', log),
];

export const describeServices = (services: SimulatedService[]): ReleaseReport['services'] =>
  Object.fromEntries(
    services.map((service) => [
      service.name,
      { image: service.image, status: service.status, download_progress: service.progress },
    ]),
  );
