import { badRequest } from '../../infra/errors/api-error.js';
import type { WriteContext } from '../../infra/odata/hooks.js';
import type { SqlValue } from '../../infra/db/database.js';

// Whether a location names a repository of the operator's registry (`<host>/…`).
export const isRegistryLocation = (location: string, registryHost: string): boolean =>
  location.toLowerCase().startsWith(`${registryHost.toLowerCase()}/`);

export const foreignLocationMessage =
  "Images of this server's registry get their location from the server: leave is_stored_at__image_location out (balena deploy does), or name an image of the same fleet";

// A location in the operator's registry that a client names for a new image must be one the
// server gave an image of the same fleet: registry tokens follow the fleet of the repository, so
// a location copied from another fleet would otherwise let its images be read or overwritten.
export const assertOwnRegistryLocation = async (
  ctx: WriteContext,
  location: string,
  serviceId: SqlValue | undefined,
): Promise<void> => {
  const { rows } = await ctx.tx.query(
    `SELECT 1
       FROM "image" i
       JOIN "service" held ON held."id" = i."is_a_build_of__service"
       JOIN "service" target ON target."id" = $2::integer
      WHERE i."is_stored_at__image_location" = $1
        AND held."application" = target."application"
      LIMIT 1`,
    [location, typeof serviceId === 'number' ? serviceId : null],
  );
  if (rows.length === 0) throw badRequest(foreignLocationMessage);
};
