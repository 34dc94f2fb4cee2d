import {
  type AdminFeatureFlag,
  type FeatureFlagKey,
  type FeatureFlagSetting,
  featureFlagKeys,
  featureFlags,
} from '@flotilla/shared/feature-flags/flags';
import type { Queryable } from '../../infra/db/database.js';

// Whose flag value is asked: a user (with the organizations they are a member of), optionally
// narrowed to one of those organizations, or a guest (the global value only).
export type FlagSubject = { userId: number | null; organizationId: number | null };

type SettingRow = {
  flag: string;
  organization: number | null;
  user: number | null;
  enabled: boolean;
};

// The value of one flag for a subject: the user's own setting, else their organization's (with no
// organization named, any of theirs that turns it on), else the global one, else the default.
export const flagValue = async (
  db: Queryable,
  key: FeatureFlagKey,
  subject: FlagSubject,
): Promise<{ value: boolean; reason: 'user' | 'organization' | 'global' | 'default' }> => {
  const { rows } = await db.query<SettingRow>(
    `SELECT s."flag", s."organization", s."user", s."enabled" FROM "feature_flag_setting" s
      WHERE s."flag" = $1 AND (
        (s."organization" IS NULL AND s."user" IS NULL)
        OR s."user" = $2
        OR s."organization" IN (
          SELECT m."is_member_of__organization" FROM "organization_membership" m
           WHERE m."user" = $2 AND ($3::integer IS NULL OR m."is_member_of__organization" = $3)))`,
    [key, subject.userId, subject.organizationId],
  );
  const own = rows.find((row) => row.user !== null);
  if (own) return { value: own.enabled, reason: 'user' };
  const organizations = rows.filter((row) => row.organization !== null);
  if (organizations.length > 0) {
    return { value: organizations.some((row) => row.enabled), reason: 'organization' };
  }
  const global = rows.find((row) => row.organization === null && row.user === null);
  if (global) return { value: global.enabled, reason: 'global' };
  return { value: featureFlags[key].defaultValue, reason: 'default' };
};

type ListedRow = SettingRow & {
  id: number;
  organization_handle: string | null;
  username: string | null;
};

export const listFlags = async (db: Queryable): Promise<AdminFeatureFlag[]> => {
  const { rows } = await db.query<ListedRow>(
    `SELECT s."id", s."flag", s."organization", s."user", s."enabled",
            o."handle" AS "organization_handle", u."username"
       FROM "feature_flag_setting" s
       LEFT JOIN "organization" o ON o."id" = s."organization"
       LEFT JOIN "user" u ON u."id" = s."user"
      ORDER BY s."flag", (s."organization" IS NOT NULL OR s."user" IS NOT NULL),
            s."user" IS NOT NULL, o."handle", u."username", s."id"`,
  );
  const settingOf = (row: ListedRow): FeatureFlagSetting => ({
    id: row.id,
    scope: row.user !== null ? 'user' : row.organization !== null ? 'organization' : 'global',
    organization:
      row.organization !== null
        ? { id: row.organization, handle: row.organization_handle ?? '' }
        : null,
    user: row.user !== null ? { id: row.user, username: row.username ?? '' } : null,
    enabled: row.enabled,
  });
  return featureFlagKeys.map((key) => ({
    key,
    description: featureFlags[key].description,
    defaultValue: featureFlags[key].defaultValue,
    settings: rows.filter((row) => row.flag === key).map(settingOf),
  }));
};

// Sets a flag for everyone, an organization or a user (replacing that scope's setting).
export const upsertSetting = async (
  db: Queryable,
  key: FeatureFlagKey,
  target: { organization: number | null; user: number | null },
  enabled: boolean,
  at: Date,
): Promise<number> => {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "feature_flag_setting" ("flag", "organization", "user", "enabled", "updated_at")
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT ("flag", coalesce("organization", 0), coalesce("user", 0))
     DO UPDATE SET "enabled" = EXCLUDED."enabled", "updated_at" = EXCLUDED."updated_at"
     RETURNING "id"`,
    [key, target.organization, target.user, enabled, at],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('feature_flag_setting upsert returned no row');
  return id;
};

export const deleteSetting = async (db: Queryable, id: number): Promise<boolean> => {
  const { rowCount } = await db.query(`DELETE FROM "feature_flag_setting" WHERE "id" = $1`, [id]);
  return (rowCount ?? 0) > 0;
};
