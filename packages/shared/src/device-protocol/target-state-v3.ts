// The target state a device polls (GET /device/v3/:uuid/state): { [uuid]: { name, config,
// apps: { [appUuid]: { releases: { [commit]: { services, volumes, networks } } } } } }. The
// server builds it (target-state-v3-build.ts); balena-supervisor and our agent read it
// (target-state-v3-read.ts). The types say what a device may receive: the server always sends
// the numbers, a reader tolerant of other servers stands in null for a missing one.

export type JsonObject = Record<string, unknown>;

export type ServiceTargetV3 = {
  id: number | null;
  image_id: number | null;
  image: string;
  // The variables the service runs with: the image's, the fleet's, the service's, the device's
  // and the device's for this service, already merged by the server.
  environment: Record<string, string>;
  // The release's labels of the service (io.balena.features.*, io.balena.update.strategy...).
  labels: Record<string, string>;
  // The image's contract, when its build declared one.
  contract?: unknown;
  // The service's entry of the release's compose file, when it has one.
  composition?: JsonObject;
  // balena's: false for a service the release declares but does not want started. Our server
  // never sends it (every service runs).
  running?: boolean;
};

export type ReleaseTargetV3 = {
  id: number | null;
  // A host OS release's version (`6.1.0`, `6.1.0+rev1`), so a device knows what it is told to
  // run; fleet releases do not carry it.
  raw_version?: string;
  services: Record<string, ServiceTargetV3>;
  // The compose file's volumes and networks sections.
  volumes: JsonObject;
  networks: JsonObject;
};

export type AppTargetV3 = {
  id: number | null;
  name: string;
  // 'fleet' for the fleet's user app; host-OS and supervisor apps have other classes.
  class?: string;
  is_host: boolean;
  // The release the device should run, keyed by its commit; none while it runs none.
  releases: Record<string, ReleaseTargetV3>;
};

export type DeviceTargetV3 = {
  name: string | null;
  // Present (false) only on a deactivated device's entry: balena-supervisor reads the entry with
  // non-exact types, so it ignores the key and just sees no release, while our agent reports the
  // device inactive. Active devices' bodies (and so their ETags) do not have it.
  is_active?: false;
  // Fleet configuration variables overridden by the device's own.
  config: Record<string, string>;
  apps: Record<string, AppTargetV3>;
};

export type TargetStateV3 = Record<string, DeviceTargetV3>;

// GET /device/v3/fleet/:appUuid/state: the fleet's entry, keyed by the fleet's uuid.
export type FleetTargetStateV3 = Record<string, Omit<DeviceTargetV3, 'is_active'>>;
