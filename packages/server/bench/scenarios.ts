import { bulkPatch } from './scenario-bulk-patch.js';
import { dashboardPage } from './scenario-dashboard-page.js';
import { deviceByUuid } from './scenario-device-by-uuid.js';
import type { BenchEnv, Caller, Scenario } from './scenario-env.js';
import { floor, httpFloor } from './scenario-floors.js';

// Every engine-vs-SQL scenario, in the order they run.

export const buildScenarios = (env: BenchEnv): Scenario[] => {
  const { seed, tokens } = env;
  const memberFleets = seed.fleets.filter((fleet) => seed.memberFleetIds.includes(fleet.id));
  const outsider = seed.fleets.find((fleet) => !seed.memberFleetIds.includes(fleet.id));
  const admin: Caller = {
    label: 'org admin',
    user: seed.admin,
    token: tokens.admin,
    fleets: seed.fleets,
  };
  const member: Caller = {
    label: 'fleet member',
    user: seed.member,
    token: tokens.member,
    fleets: memberFleets,
  };
  return [
    httpFloor(env),
    floor(env, admin),
    dashboardPage(env, admin, undefined),
    dashboardPage(env, member, outsider),
    deviceByUuid(env, admin, undefined),
    deviceByUuid(env, member, outsider),
    // Writes last: their dead tuples must not slow the read scenarios down.
    bulkPatch(env, admin),
  ];
};
