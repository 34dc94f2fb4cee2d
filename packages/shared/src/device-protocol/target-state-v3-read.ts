import type {
  AppTargetV3,
  DeviceTargetV3,
  JsonObject,
  ReleaseTargetV3,
  ServiceTargetV3,
} from './target-state-v3.js';

// How a device reads its entry of the target state. Tolerant on purpose: a field it does not
// understand never stops the device from updating, so a value of the wrong type falls back to
// what a missing one means instead of refusing the body.

const isRecord = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const recordOrEmpty = (value: unknown): JsonObject => (isRecord(value) ? value : {});

const numberOrNull = (value: unknown): number | null => (typeof value === 'number' ? value : null);

// Values arrive as strings; a number or boolean is kept as its text, anything else dropped.
const stringMap = (raw: unknown): Record<string, string> => {
  const map: Record<string, string> = {};
  for (const [key, value] of Object.entries(recordOrEmpty(raw))) {
    if (typeof value === 'string') map[key] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') map[key] = String(value);
  }
  return map;
};

const readService = (name: string, raw: unknown): ServiceTargetV3 => {
  const fields = recordOrEmpty(raw);
  return {
    id: numberOrNull(fields.id),
    image_id: numberOrNull(fields.image_id),
    image: typeof fields.image === 'string' ? fields.image : `${name}:latest`,
    environment: stringMap(fields.environment),
    labels: stringMap(fields.labels),
    ...(fields.contract === undefined || fields.contract === null
      ? {}
      : { contract: fields.contract }),
    ...(isRecord(fields.composition) ? { composition: fields.composition } : {}),
    ...(typeof fields.running === 'boolean' ? { running: fields.running } : {}),
  };
};

const readRelease = (raw: unknown): ReleaseTargetV3 => {
  const fields = recordOrEmpty(raw);
  return {
    id: numberOrNull(fields.id),
    ...(typeof fields.raw_version === 'string' ? { raw_version: fields.raw_version } : {}),
    services: Object.fromEntries(
      Object.entries(recordOrEmpty(fields.services)).map(([name, service]) => [
        name,
        readService(name, service),
      ]),
    ),
    volumes: recordOrEmpty(fields.volumes),
    networks: recordOrEmpty(fields.networks),
  };
};

const readApp = (uuid: string, raw: JsonObject): AppTargetV3 => ({
  id: numberOrNull(raw.id),
  name: typeof raw.name === 'string' ? raw.name : uuid,
  // No class means the fleet's app; a class that is no text is no fleet's.
  ...(raw.class === undefined ? {} : { class: String(raw.class) }),
  is_host: raw.is_host === true,
  releases: Object.fromEntries(
    Object.entries(recordOrEmpty(raw.releases)).map(([commit, release]) => [
      commit,
      readRelease(release),
    ]),
  ),
});

const inactive: Pick<DeviceTargetV3, 'is_active'> = { is_active: false };

// The device's entry of GET /device/v3/:uuid/state, or null when the body has none.
export const readDeviceTargetV3 = (body: unknown, uuid: string): DeviceTargetV3 | null => {
  if (!isRecord(body)) return null;
  const device = body[uuid];
  if (!isRecord(device)) return null;
  const apps: Record<string, AppTargetV3> = {};
  for (const [appUuid, raw] of Object.entries(recordOrEmpty(device.apps))) {
    if (isRecord(raw)) apps[appUuid] = readApp(appUuid, raw);
  }
  return {
    name: typeof device.name === 'string' ? device.name : null,
    ...(device.is_active === false ? inactive : {}),
    config: stringMap(device.config),
    apps,
  };
};
