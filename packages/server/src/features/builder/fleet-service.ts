import type { Queryable } from '../../infra/db/database.js';
import type { ActorWriter } from '../../infra/odata/actor-writes.js';

// The fleet's service of that name, created on its first release.
export const fleetServiceId = async (
  tx: Queryable,
  writer: ActorWriter,
  fleetId: number,
  name: string,
): Promise<number> => {
  const existing = await tx.query<{ id: number }>(
    'SELECT "id" FROM "service" WHERE "application" = $1 AND "service_name" = $2',
    [fleetId, name],
  );
  return (
    existing.rows[0]?.id ??
    (await writer.create('service', { application: fleetId, service_name: name }))
  );
};
