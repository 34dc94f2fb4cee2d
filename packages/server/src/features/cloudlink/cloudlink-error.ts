// Why an action could not reach a device or get its answer. The /supervisor/* routes turn every
// reason into one clear 503; the reason stays for logs and tests.
export type CloudlinkFailure =
  // No live cloudlink: never connected, disconnected, or held by a node that stopped heartbeating.
  | 'offline'
  // Connected, but no answer within the timeout (or the holding node did not reply in time).
  | 'timeout'
  // The connection closed (or was replaced) while the request was waiting.
  | 'disconnected';

export class CloudlinkError extends Error {
  readonly failure: CloudlinkFailure;

  constructor(failure: CloudlinkFailure, message: string) {
    super(message);
    this.name = 'CloudlinkError';
    this.failure = failure;
  }
}

export const deviceOffline = (): CloudlinkError =>
  new CloudlinkError('offline', 'No online device(s) found');

export const deviceTimedOut = (timeoutMs: number): CloudlinkError =>
  new CloudlinkError('timeout', `Device did not answer within ${Math.ceil(timeoutMs / 1000)} s`);

export const deviceDisconnected = (): CloudlinkError =>
  new CloudlinkError('disconnected', 'Device disconnected before answering');
