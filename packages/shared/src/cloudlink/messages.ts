// The cloudlink: one websocket from each device agent to the server (GET /cloudlink/v1, Bearer
// device key), replacing balena's VPN for actions, and later terminal and diagnostics. Every
// message is one JSON object; both ends reject anything else.

export const cloudlinkPath = '/cloudlink/v1';

// What the console and /supervisor/* routes can ask a device to do (seed 001 section 7).
export const deviceActions = [
  'ping',
  'blink',
  'restart-services',
  'reboot',
  'shutdown',
  'purge',
  'update',
  'device-state',
  'start-service',
  'stop-service',
  'restart-service',
] as const;
export type DeviceAction = (typeof deviceActions)[number];

export type ActionParams = {
  // Skip update locks (reboot, shutdown, update, restart-services).
  force?: boolean;
  appId?: number;
  // The service an action on one service targets (by image id, as the supervisor API does, or name).
  imageId?: number;
  serviceName?: string;
};

// Server → device.
export type ActionRequest = {
  type: 'action';
  id: string;
  action: DeviceAction;
  params: ActionParams;
};

// Device → server: the answer to one request. `status` is HTTP-like: 200 done, 423 refused by an
// update lock (the SDK's BalenaSupervisorLockedError), 400 bad params, 500 failed.
export type ActionResult = {
  type: 'result';
  id: string;
  status: number;
  body: unknown;
};

// Device → server, once after connecting.
export type Hello = { type: 'hello'; uuid: string; agentVersion: string };

export type ServerMessage = ActionRequest;
export type DeviceMessage = ActionResult | Hello;

export const isDeviceAction = (value: unknown): value is DeviceAction =>
  typeof value === 'string' && (deviceActions as readonly string[]).includes(value);
