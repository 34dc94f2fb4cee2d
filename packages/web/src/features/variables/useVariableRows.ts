import { useMemo } from 'react';
import {
  useConfigVars,
  useDeviceVariables,
  useFleetConfig,
  useFleetEnvironment,
} from './api-tables.js';
import type { StagedChanges } from './staged-edits.js';
import { allServices, type VariableChange } from './variable-model.js';
import { variableRows } from './variable-rows.js';
import type { VariablesScreenSpec, VariablesSubject } from './variables-screens.js';

// The rows of a variables screen: the values of its level beside those the fleet gives a device,
// with the staged edits applied. Only the reads the screen needs are enabled.
export const useVariableRows = (
  spec: VariablesScreenSpec,
  subject: VariablesSubject,
  changes: StagedChanges<VariableChange>,
) => {
  const environment = useFleetEnvironment(subject.fleetId, subject.releaseId, spec.services);
  const fleetConfig = useFleetConfig(subject.fleetId, spec.configControls);
  const device = useDeviceVariables(subject.deviceId, spec.inheritsFleet);
  const rules = useConfigVars(subject.deviceType?.slug ?? '');
  const fleetQuery = spec.services ? environment : fleetConfig;
  const queries = spec.inheritsFleet ? [fleetQuery, device, rules] : [fleetQuery, rules];

  const services = useMemo(() => environment.data?.services ?? [], [environment.data]);
  const installs = useMemo(() => device.data?.installs ?? [], [device.data]);
  const rows = useMemo(() => {
    const fleetValues = spec.services
      ? (environment.data?.variables ?? [])
      : (fleetConfig.data ?? []).map((row) => ({ ...row, serviceId: allServices }));
    if (!spec.inheritsFleet) return variableRows([], fleetValues, changes);
    const deviceValues = spec.services
      ? [
          ...(device.data?.environment ?? []).map((row) => ({ ...row, serviceId: allServices })),
          ...installs.flatMap((install) =>
            install.variables.map((row) => ({ ...row, serviceId: install.serviceId })),
          ),
        ]
      : (device.data?.config ?? []).map((row) => ({ ...row, serviceId: allServices }));
    return variableRows(fleetValues, deviceValues, changes);
  }, [spec, environment.data, fleetConfig.data, device.data, installs, changes]);

  return {
    queries,
    loaded: queries.every((query) => query.isSuccess),
    rules,
    rows,
    services,
    installs,
  };
};
