import { floorSql } from './baseline-sql.js';
import { type BenchEnv, type Caller, pick, type Scenario } from './scenario-env.js';
import { call, getRows } from './scenario-http.js';

// No engine, no token, no table: the HTTP round trip alone (Fastify plus the fetch client that
// shares this process) against one database round trip.
export const httpFloor = (env: BenchEnv): Scenario => ({
  name: 'floor: GET /ping vs SELECT 1',
  async engine() {
    await call(env, 'GET', '/ping', undefined);
  },
  async sql() {
    await env.sql.query('SELECT 1');
  },
});

// The cheapest useful read: shows the fixed cost of the HTTP stack, token check and OData
// compilation, against which the other scenarios' overhead can be read.
export const floor = (env: BenchEnv, caller: Caller): Scenario => {
  const ids = caller.fleets.flatMap((fleet) => fleet.deviceIds);
  return {
    name: `floor: device(<id>)?$select=id (${caller.label})`,
    async engine() {
      const rows = await getRows<{ id: number }>(
        env,
        `/device(${pick(ids, env.random)})?$select=id`,
        caller.token,
      );
      if (rows.length !== 1) throw new Error(`expected one device, got ${rows.length}`);
    },
    async sql() {
      const { rows } = await env.sql.query(floorSql, [caller.user.userId, pick(ids, env.random)]);
      if (rows.length !== 1) throw new Error(`expected one device, got ${rows.length}`);
    },
  };
};
