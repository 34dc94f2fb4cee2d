import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { localModeVariableNames } from '@flotilla/shared/permissions/field-permissions';
import type { FieldRequest } from './field-actions.js';

const [localModeVariable] = localModeVariableNames;

// Local mode is a configuration variable: the one the device holds (either name) is changed,
// else RESIN_SUPERVISOR_LOCAL_MODE is created (what balena's SDK does).
const setLocalMode = async (
  client: FlotillaClient,
  deviceId: number,
  enabled: boolean,
): Promise<void> => {
  const value = enabled ? '1' : '0';
  const existing = await client.pine.get({
    resource: 'device_config_variable',
    options: {
      $select: ['id', 'value'],
      $filter: { device: deviceId, name: { $in: [...localModeVariableNames] } },
    },
  });
  if (existing.length === 0) {
    await client.pine.post({
      resource: 'device_config_variable',
      body: { device: deviceId, name: localModeVariable, value },
    });
    return;
  }
  for (const variable of existing) {
    if (variable.value === value) continue;
    await client.pine.patch({
      resource: 'device_config_variable',
      id: variable.id,
      body: { value },
    });
  }
};

// One field action on one device: a /v7 write of the device (or of its local-mode variable).
export const runFieldAction = async (
  client: FlotillaClient,
  request: FieldRequest,
  deviceId: number,
): Promise<void> => {
  const patch = (body: Record<string, unknown>) =>
    client.pine.patch({ resource: 'device', id: deviceId, body });
  switch (request.id) {
    case 'pin':
      await patch({ is_pinned_on__release: request.input.releaseId });
      return;
    case 'public-url':
      await patch({ is_web_accessible: request.input.enabled });
      return;
    case 'support-access':
      await patch({ is_accessible_by_support_until__date: request.input.until });
      return;
    case 'move':
      await patch({ belongs_to__application: request.input.fleetId });
      return;
    case 'deactivate':
      await patch({ is_active: false });
      return;
    case 'local-mode':
      await setLocalMode(client, deviceId, request.input.enabled);
      return;
  }
};
