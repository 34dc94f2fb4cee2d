import { changedNames, type TargetService } from '../target-types.js';

// How a service's variables changed between what it runs with and the target, for the runtimes
// that restart services on such a change (simulated and host).

// Long values (certificates, images) are cut in log lines.
const shown = (value: string): string => (value.length > 60 ? `${value.slice(0, 57)}...` : value);

// "GREETING=bonjour, OLD unset": what changed in a service's environment.
export const describeEnvironmentChange = (
  names: readonly string[],
  environment: Readonly<Record<string, string>>,
): string =>
  names
    .map((name) => {
      const value = environment[name];
      return value === undefined ? `${name} unset` : `${name}=${shown(value)}`;
    })
    .join(', ');

export type EnvironmentChange<S> = {
  service: S;
  environment: Record<string, string>;
  // The names added, changed or removed, sorted.
  names: string[];
};

// The services whose environment differs from the target's service of the same name.
export const environmentChanges = <
  S extends { name: string; environment: Readonly<Record<string, string>> },
>(
  services: readonly S[],
  targets: readonly TargetService[],
): EnvironmentChange<S>[] =>
  services.flatMap((service) => {
    const target = targets.find((candidate) => candidate.name === service.name);
    if (!target) return [];
    const names = changedNames(service.environment, target.environment);
    return names.length === 0 ? [] : [{ service, environment: { ...target.environment }, names }];
  });
