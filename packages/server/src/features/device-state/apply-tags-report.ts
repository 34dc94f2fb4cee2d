import type { Queryable } from '../../infra/db/database.js';

// PATCH /device/v3/tags: the device's tags that changed, as key -> value; tags it does not
// mention are left alone (newer supervisors report only changes).
export const applyTagsReport = async (
  db: Queryable,
  deviceId: number,
  tags: Record<string, string>,
): Promise<void> => {
  const entries = Object.entries(tags);
  if (entries.length === 0) return;
  await db.query(
    `INSERT INTO "device_tag" ("device", "tag_key", "value")
     SELECT $1, t."key", t."value" FROM unnest($2::text[], $3::text[]) AS t("key", "value")
     ON CONFLICT ("device", "tag_key") DO UPDATE SET "value" = EXCLUDED."value"`,
    [deviceId, entries.map(([key]) => key), entries.map(([, value]) => value)],
  );
};
