import type { Queryable } from '../../infra/db/database.js';

export type DeviceTypeRow = {
  slug: string;
  name: string;
  is_private: boolean;
  contract: Record<string, unknown> | null;
  arch: string;
  aliases: string[];
};

const selectRows = `
  SELECT dt."slug", dt."name", dt."is_private", dt."contract", ca."slug" AS "arch",
         coalesce((SELECT array_agg(a."is_referenced_by__alias" ORDER BY a."id")
                     FROM "device_type_alias" a WHERE a."device_type" = dt."id"), '{}') AS "aliases"
    FROM "device_type" dt
    JOIN "cpu_architecture" ca ON ca."id" = dt."is_of__cpu_architecture"`;

// Public device types only: private ones are not part of the catalogue everyone sees.
export const listDeviceTypes = async (db: Queryable): Promise<DeviceTypeRow[]> =>
  (
    await db.query<DeviceTypeRow>(
      `${selectRows} WHERE NOT dt."is_private" ORDER BY dt."name", dt."id"`,
    )
  ).rows;

// By slug or any alias (the SDK resolves every device type through its aliases).
export const findDeviceType = async (
  db: Queryable,
  slugOrAlias: string,
): Promise<DeviceTypeRow | undefined> =>
  (
    await db.query<DeviceTypeRow>(
      `${selectRows}
        WHERE NOT dt."is_private"
          AND (dt."slug" = $1 OR EXISTS (SELECT 1 FROM "device_type_alias" x
                                          WHERE x."device_type" = dt."id"
                                            AND x."is_referenced_by__alias" = $1))
        ORDER BY (dt."slug" = $1) DESC
        LIMIT 1`,
      [slugOrAlias],
    )
  ).rows[0];

export const canonicalDeviceTypeSlug = async (
  db: Queryable,
  slugOrAlias: string,
): Promise<string | undefined> => (await findDeviceType(db, slugOrAlias))?.slug;
