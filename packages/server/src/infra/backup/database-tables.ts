import type { Queryable } from '../db/database.js';

// What a backup holds of the database: every ordinary table of the public schema (a
// partitioned table as a whole) but the migration ledger, which the restore rebuilds.
export const backedUpTables = async (db: Queryable): Promise<string[]> => {
  const { rows } = await db.query<{ name: string }>(
    `SELECT c."relname" AS "name"
       FROM pg_class c JOIN pg_namespace n ON n."oid" = c."relnamespace"
      WHERE n."nspname" = 'public' AND c."relkind" IN ('r', 'p') AND NOT c."relispartition"
        AND c."relname" <> 'flotilla_migration'
      ORDER BY c."relname"`,
  );
  return rows.map((row) => row.name);
};

// The columns a restore writes: generated ones are computed again.
export const writableColumns = async (db: Queryable, table: string): Promise<string[]> => {
  const { rows } = await db.query<{ name: string }>(
    `SELECT "attname" AS "name" FROM pg_attribute
      WHERE "attrelid" = format('public.%I', $1::text)::regclass AND "attnum" > 0
        AND NOT "attisdropped" AND "attgenerated" = ''
      ORDER BY "attnum"`,
    [table],
  );
  return rows.map((row) => row.name);
};

export const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;
