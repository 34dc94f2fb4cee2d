import { bulkUpdateSql } from './baseline-sql.js';
import type { BenchEnv, Caller, Scenario } from './scenario-env.js';
import { call, odata } from './scenario-http.js';
import { difference } from './scenario-verify.js';
import type { SeededFleet } from './seed.js';

const bulkSize = 200;

// Consecutive calls take consecutive fleets, so the concurrent PATCHes never wait on each other's
// row locks: the scenario measures the write path, not lock queues.
const bulkTargets = (fleets: readonly SeededFleet[], random: () => number) => {
  let next = 0;
  return (): number[] => {
    const fleet = fleets[next++ % fleets.length];
    if (!fleet) throw new Error('no fleets');
    const ids = [...fleet.deviceIds];
    // Partial Fisher-Yates: bulkSize random devices of the fleet.
    for (let i = 0; i < Math.min(bulkSize, ids.length); i++) {
      const j = i + Math.floor(random() * (ids.length - i));
      [ids[i], ids[j]] = [ids[j] as number, ids[i] as number];
    }
    return ids.slice(0, bulkSize);
  };
};

const patchPath = (ids: readonly number[]): string =>
  `/v7/device?$filter=${odata(`id in (${ids.join(',')})`)}`;

export const bulkPatch = (env: BenchEnv, caller: Caller): Scenario => {
  const engineTargets = bulkTargets(caller.fleets, env.random);
  const sqlTargets = bulkTargets(caller.fleets, env.random);
  const note = (): string => `bench note ${Math.floor(env.random() * 1e9)}`;
  const sqlUpdate = async (ids: number[], value: string): Promise<void> => {
    const result = await env.sql.query(bulkUpdateSql, [caller.user.userId, value, ids]);
    if (result.rowCount !== ids.length) {
      throw new Error(`updated ${result.rowCount} of ${ids.length} devices`);
    }
  };
  const notedIds = async (value: string): Promise<string> => {
    const { rows } = await env.sql.query<{ id: number }>(
      'SELECT "id" FROM "device" WHERE "note" = $1 ORDER BY "id"',
      [value],
    );
    return rows.map((row) => row.id).join(',');
  };
  return {
    name: `bulk PATCH of ${bulkSize} devices (${caller.label})`,
    async engine() {
      await call(env, 'PATCH', patchPath(engineTargets()), caller.token, { note: note() });
    },
    async sql() {
      await sqlUpdate(sqlTargets(), note());
    },
    async verify() {
      const ids = engineTargets().sort((a, b) => a - b);
      const expected = ids.join(',');
      await call(env, 'PATCH', patchPath(ids), caller.token, { note: 'bench verify engine' });
      const engine = await notedIds('bench verify engine');
      await sqlUpdate(ids, 'bench verify sql');
      const sql = await notedIds('bench verify sql');
      return [
        ...difference('rows changed by the engine PATCH', engine, expected),
        ...difference('rows changed by the SQL UPDATE', sql, expected),
      ];
    },
  };
};
