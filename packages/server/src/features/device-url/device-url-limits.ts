// What one public device URL request may cost the server (docs/DEVICES.md "Public device URLs").
export type DeviceUrlLimits = {
  // Largest request body forwarded to a device.
  maxBodyBytes: number;
  // Largest response head (status line and headers) accepted from a device.
  maxResponseHeaderBytes: number;
  // Requests (and websockets) in progress per device on one server process.
  maxStreamsPerDevice: number;
  // How long the device may take to start answering.
  responseTimeoutMs: number;
  // A tunnel with no byte either way for this long is closed (websockets get `idleUpgradeMs`).
  idleTimeoutMs: number;
  idleUpgradeMs: number;
};

export const defaultDeviceUrlLimits: DeviceUrlLimits = {
  maxBodyBytes: 10 * 1024 * 1024,
  maxResponseHeaderBytes: 16 * 1024,
  maxStreamsPerDevice: 16,
  responseTimeoutMs: 30_000,
  idleTimeoutMs: 60_000,
  idleUpgradeMs: 300_000,
};
