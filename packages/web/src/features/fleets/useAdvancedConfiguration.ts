import { errorText } from '@flotilla/sdk/errors';
import { useState } from 'react';
import { useDebounced } from '../../ui/useDebounced.js';
import { useRepositoryContract, useVariableNamingRules } from './api-create-fleet.js';
import {
  type AdvancedConfiguration,
  buildSource,
  mergedVariables,
  noAdvancedConfiguration,
  tarballUrlProblem,
  variableProblems,
} from './advanced-configuration.js';
import { repositoryUrlProblem } from './fleet/RepositorySettings.js';

// The repository URL is looked up once the user stopped typing for this long.
const lookupDelayMs = 500;

export type AdvancedState = ReturnType<typeof useAdvancedConfiguration>;

// (Naming rules are the same for every device type; the slug only selects the schema.)
// The advanced configuration's values, the repository lookup and every problem, for the dialog:
// `loading` and `blocked` keep the create button disabled, `toCreate` is what is sent.
export const useAdvancedConfiguration = (deviceTypeSlug: string | undefined) => {
  const [value, setValue] = useState<AdvancedConfiguration>(noAdvancedConfiguration);
  const repositoryUrl = value.repositoryUrl.trim();
  const tarballUrl = value.tarballUrl.trim();
  const repositoryProblem = repositoryUrlProblem(repositoryUrl);
  const settledUrl = useDebounced(repositoryProblem ? '' : repositoryUrl, lookupDelayMs);
  const contract = useRepositoryContract(settledUrl);
  const hasVariables = value.environment.length > 0 || value.configuration.length > 0;
  const rules = useVariableNamingRules(hasVariables ? deviceTypeSlug : undefined);
  const environmentProblems = variableProblems('environment', value.environment, rules.data);
  const configurationProblems = variableProblems('configuration', value.configuration, rules.data);
  const checking =
    repositoryUrl !== '' &&
    !repositoryProblem &&
    (settledUrl !== repositoryUrl || contract.isFetching);
  const found = repositoryUrl !== '' && !checking && contract.isSuccess ? contract.data : undefined;
  const lookupError =
    repositoryUrl !== '' && !checking && contract.isError
      ? (errorText(contract.error) ?? 'Failed retrieving data from the code host')
      : undefined;
  return {
    value,
    setValue,
    repository: {
      problem: repositoryProblem,
      checking,
      found,
      error: lookupError,
      // A code host that did not answer may answer a second time.
      retry: () => void contract.refetch(),
    },
    tarballProblem: tarballUrlProblem(tarballUrl),
    environmentProblems,
    configurationProblems,
    rulesError: hasVariables && rules.isError ? errorText(rules.error) : null,
    // Advanced configuration loads before create is enabled.
    loading: checking || (hasVariables && rules.isPending),
    blocked:
      Boolean(repositoryProblem) ||
      lookupError !== undefined ||
      Boolean(tarballUrlProblem(tarballUrl)) ||
      (hasVariables && rules.isError) ||
      [...environmentProblems, ...configurationProblems].some(Boolean),
    toCreate: {
      repositoryUrl: found?.url ?? null,
      buildFrom: buildSource(tarballUrl, found),
      environment: mergedVariables(found?.contract.environmentVariables ?? [], value.environment),
      configuration: mergedVariables(found?.contract.configVariables ?? [], value.configuration),
    },
  };
};
