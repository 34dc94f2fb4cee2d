import { type VariableKind, variableNameProblem } from '@flotilla/shared/variables/config-vars';
import { badRequest } from '../../infra/errors/api-error.js';
import type { HookRegistry, Values } from '../../infra/odata/hooks.js';

// Which naming rule each variable resource follows (/config/vars).
export const variableResourceKinds: Record<string, VariableKind> = {
  application_config_variable: 'config',
  device_config_variable: 'config',
  application_environment_variable: 'environment',
  device_environment_variable: 'environment',
  build_environment_variable: 'environment',
  service_environment_variable: 'environment',
  device_service_environment_variable: 'environment',
};

const checkName = (kind: VariableKind, values: Values): void => {
  if (values.name === undefined) return;
  const problem =
    typeof values.name === 'string' ? variableNameProblem(values.name, kind) : undefined;
  if (typeof values.name !== 'string' || problem) {
    throw badRequest(problem ?? "'name' must be a string");
  }
};

export const registerVariableHooks = (hooks: HookRegistry): void => {
  for (const [resource, kind] of Object.entries(variableResourceKinds)) {
    hooks.add(resource, {
      beforeCreate: async (_ctx, values) => checkName(kind, values),
      beforeUpdate: async (_ctx, _ids, values) => checkName(kind, values),
    });
  }
};
