import type { ActionParams, DeviceAction } from '@flotilla/shared/cloudlink/messages';
import { badRequest } from '../../infra/errors/api-error.js';
import type { SupervisorBody } from './supervisor-body.js';

export type SupervisorEndpoint = {
  // Path under /supervisor, as balena's SDK calls it.
  path: string;
  action: DeviceAction;
  // The action's params from the request body (and the path's appId for v2 routes).
  params(body: SupervisorBody, pathAppId: number | undefined): ActionParams;
};

// Params left undefined are dropped when the request is serialised for the device.
const force = (body: SupervisorBody): ActionParams => ({ force: body.data?.force ?? false });

const fleet = (body: SupervisorBody): ActionParams => ({
  appId: body.data?.appId ?? body.appId,
  force: body.data?.force,
});

const service = (body: SupervisorBody, pathAppId: number | undefined): ActionParams => {
  const imageId = body.data?.imageId;
  const serviceName = body.data?.serviceName;
  if (imageId === undefined && serviceName === undefined) {
    throw badRequest('data.imageId or data.serviceName is required');
  }
  return { appId: pathAppId ?? body.data?.appId ?? body.appId, imageId, serviceName };
};

const none = (): ActionParams => ({});

// The supervisor API calls balena's SDK makes through the proxy (wire contract section 6), each
// mapped to the cloudlink action the agent runs.
export const supervisorEndpoints: readonly SupervisorEndpoint[] = [
  { path: '/ping', action: 'ping', params: none },
  { path: '/v1/blink', action: 'blink', params: none },
  { path: '/v1/restart', action: 'restart-services', params: fleet },
  { path: '/v1/reboot', action: 'reboot', params: force },
  { path: '/v1/shutdown', action: 'shutdown', params: force },
  { path: '/v1/purge', action: 'purge', params: fleet },
  { path: '/v1/update', action: 'update', params: force },
  { path: '/v1/device', action: 'device-state', params: none },
  { path: '/v2/applications/:appId/start-service', action: 'start-service', params: service },
  { path: '/v2/applications/:appId/stop-service', action: 'stop-service', params: service },
  { path: '/v2/applications/:appId/restart-service', action: 'restart-service', params: service },
];
