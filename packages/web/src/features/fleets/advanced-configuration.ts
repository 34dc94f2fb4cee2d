import type { RepositoryContract } from '@flotilla/shared/fleets/repository-contract';
import {
  configNameProblem,
  duplicateProblem,
  environmentNameProblem,
  type NamingRules,
  valueProblem,
} from '@flotilla/shared/variables/variable-form-rules';
import type { FleetVariable } from './api-create-fleet.js';

// The create dialog's optional advanced configuration, as the user typed it.
export type AdvancedConfiguration = {
  repositoryUrl: string;
  tarballUrl: string;
  environment: FleetVariable[];
  configuration: FleetVariable[];
};

export const noAdvancedConfiguration: AdvancedConfiguration = {
  repositoryUrl: '',
  tarballUrl: '',
  environment: [],
  configuration: [],
};

export type VariableKind = 'environment' | 'configuration';

const isHttpUrl = (text: string): boolean => /^https?:\/\/\S+$/i.test(text);

export const tarballUrlProblem = (text: string): string | undefined =>
  text === '' || isHttpUrl(text)
    ? undefined
    : 'Enter an http(s) URL of a .tar or .tar.gz, such as https://example.com/project.tar.gz';

// Each variable's name problem (or undefined), in list order; names are checked once the naming
// rules have loaded, a repeated name is "already exist".
export const variableProblems = (
  kind: VariableKind,
  variables: readonly FleetVariable[],
  rules: NamingRules | undefined,
): (string | undefined)[] =>
  variables.map(({ name, value }, index) => {
    const trimmed = name.trim();
    const nameProblem = rules
      ? kind === 'environment'
        ? environmentNameProblem(trimmed, rules)
        : configNameProblem(trimmed, rules)
      : trimmed === ''
        ? 'Name is required'
        : undefined;
    return (
      nameProblem ??
      duplicateProblem(trimmed, (taken) =>
        variables.some((other, at) => at < index && other.name.trim() === taken),
      ) ??
      valueProblem(value)
    );
  });

// The variables the fleet is created with: the repository's balena.yml's, then the user's (a name
// the user set wins over the contract's).
export const mergedVariables = (
  fromContract: readonly FleetVariable[],
  fromUser: readonly FleetVariable[],
): FleetVariable[] => {
  const user = fromUser.map(({ name, value }) => ({ name: name.trim(), value }));
  return [
    ...fromContract.filter((variable) => !user.some((u) => u.name === variable.name)),
    ...user,
  ];
};

// What the first release is built from: the tarball URL, else the repository's default branch.
export const buildSource = (
  tarballUrl: string,
  contract: RepositoryContract | undefined,
): string | null => (tarballUrl !== '' ? tarballUrl : (contract?.archiveUrl ?? null));
