import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../infra/db/database.js';
import { createTestDatabase } from '../test-support/test-database.js';
import type { ScalarType } from './model-types.js';
import { v7Definitions, v7Model } from './v7-model.js';

// The model against the schema PostgreSQL holds after every migration (not against one SQL file),
// so a column added by a later migration is seen where the model expects it.

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

type Column = {
  relation: string;
  kind: 'table' | 'view';
  column: string;
  dataType: string;
  notNull: boolean;
  hasDefault: boolean;
};

const columnsOf = async (): Promise<Map<string, Map<string, Column>>> => {
  const { rows } = await db.query<Column>(
    `SELECT c."relname" AS "relation",
            CASE c."relkind" WHEN 'v' THEN 'view' ELSE 'table' END AS "kind",
            a."attname" AS "column",
            format_type(a."atttypid", NULL) AS "dataType",
            a."attnotnull" AS "notNull",
            a."atthasdef" OR a."attidentity" <> '' AS "hasDefault"
       FROM pg_class c
       JOIN pg_namespace n ON n."oid" = c."relnamespace" AND n."nspname" = 'public'
       JOIN pg_attribute a ON a."attrelid" = c."oid" AND a."attnum" > 0 AND NOT a."attisdropped"
      WHERE c."relkind" IN ('r', 'v')`,
  );
  const relations = new Map<string, Map<string, Column>>();
  for (const row of rows) {
    const columns = relations.get(row.relation) ?? new Map<string, Column>();
    columns.set(row.column, row);
    relations.set(row.relation, columns);
  }
  return relations;
};

type ForeignKey = { relation: string; column: string; target: string };

// Single-column foreign keys, "table.column" → referenced table.
const foreignKeysOf = async (): Promise<Map<string, string>> => {
  const { rows } = await db.query<ForeignKey>(
    `SELECT c."conrelid"::regclass::text AS "relation", a."attname" AS "column",
            c."confrelid"::regclass::text AS "target"
       FROM pg_constraint c
       JOIN pg_attribute a ON a."attrelid" = c."conrelid" AND a."attnum" = c."conkey"[1]
      WHERE c."contype" = 'f' AND cardinality(c."conkey") = 1`,
  );
  return new Map(
    rows.map((row) => [`${unquote(row.relation)}.${row.column}`, unquote(row.target)]),
  );
};

const unquote = (name: string): string => name.replace(/^"|"$/g, '');

const sqlTypeOf: Record<ScalarType, string> = {
  integer: 'integer',
  bigint: 'bigint',
  real: 'double precision',
  text: 'text',
  boolean: 'boolean',
  date: 'timestamp with time zone',
  json: 'jsonb',
};

describe('the model against the migrated database', () => {
  it('has a table or view for every resource and a column of the right type for every stored field', async () => {
    const relations = await columnsOf();
    const foreignKeys = await foreignKeysOf();
    const problems: string[] = [];
    for (const [name, definition] of Object.entries(v7Definitions)) {
      const columns = relations.get(name);
      if (!columns) {
        problems.push(`${name}: no table or view`);
        continue;
      }
      for (const [fieldName, field] of Object.entries(definition.fields)) {
        if (field.computed) continue;
        const column = columns.get(fieldName);
        if (!column) {
          problems.push(`${name}.${fieldName}: no column`);
          continue;
        }
        if (column.dataType !== sqlTypeOf[field.type]) {
          problems.push(
            `${name}.${fieldName}: ${column.dataType}, expected ${sqlTypeOf[field.type]}`,
          );
        }
        // Views carry neither constraints nor defaults; their tables are checked.
        if (column.kind === 'view') continue;
        const references = foreignKeys.get(`${name}.${fieldName}`);
        if (references !== field.references) {
          problems.push(
            `${name}.${fieldName}: references ${references ?? 'nothing'}, the model says ${field.references ?? 'nothing'}`,
          );
        }
        // "required": must be given on create, i.e. NOT NULL without a default.
        if (field.required === true && !(column.notNull && !column.hasDefault)) {
          problems.push(
            `${name}.${fieldName}: required, but the column is nullable or has a default`,
          );
        }
      }
    }
    expect(problems).toEqual([]);
  });

  // Filled on create by a hook (features/*/…-hooks.ts) when the client leaves them out.
  const filledByHooks = new Set([
    'organization.handle',
    'application.slug',
    'image.is_stored_at__image_location',
  ]);

  it('marks every NOT NULL column without a default as required, unless a hook fills it', async () => {
    const relations = await columnsOf();
    const problems: string[] = [];
    for (const [name, definition] of Object.entries(v7Definitions)) {
      if (definition.readOnly === true) continue;
      for (const column of relations.get(name)?.values() ?? []) {
        if (column.kind === 'view' || !column.notNull || column.hasDefault) continue;
        const field = definition.fields[column.column];
        // Hidden and read-only columns are filled by hooks (ids, secrets, server state).
        if (field?.hidden === true || field?.readOnly === true) continue;
        if (filledByHooks.has(`${name}.${column.column}`)) continue;
        if (field?.required !== true) {
          problems.push(`${name}.${column.column}: NOT NULL without default, not required`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('indexes every foreign-key column', async () => {
    // Guards the query below against silently finding no foreign key at all.
    expect((await foreignKeysOf()).size).toBeGreaterThan(20);
    const { rows } = await db.query<{ relation: string; column: string }>(
      `SELECT c."conrelid"::regclass::text AS "relation", a."attname" AS "column"
         FROM pg_constraint c
         JOIN pg_attribute a ON a."attrelid" = c."conrelid" AND a."attnum" = c."conkey"[1]
        WHERE c."contype" = 'f'
          AND NOT EXISTS (
            SELECT 1 FROM pg_index i
             WHERE i."indrelid" = c."conrelid" AND i."indkey"[0] = c."conkey"[1])`,
    );
    expect(rows.map((row) => `${unquote(row.relation)}.${row.column}`)).toEqual([]);
  });

  it('runs the SQL of every computed field, scope and navigation', async () => {
    const problems: string[] = [];
    const tryQuery = async (what: string, sql: string): Promise<void> => {
      try {
        await db.query(`EXPLAIN ${sql}`);
      } catch (error) {
        problems.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
    for (const resource of v7Model.resources.values()) {
      const table = `"${resource.name}"`;
      for (const field of resource.fields.values()) {
        if (!field.computed) continue;
        await tryQuery(
          `${resource.name}.${field.name}`,
          `SELECT ${field.computed('"r"')} FROM ${table} "r"`,
        );
      }
      for (const [kind, scope] of Object.entries(resource.scope)) {
        await tryQuery(
          `${resource.name} scope ${kind}`,
          `SELECT ${scope('"r"')} FROM ${table} "r"`,
        );
      }
      for (const navigation of resource.navigations.values()) {
        await tryQuery(
          `${resource.name}.${navigation.name}`,
          `SELECT 1 FROM ${table} "p" JOIN "${navigation.target}" "c" ON ${navigation.join('"p"', '"c"')}`,
        );
      }
    }
    expect(problems).toEqual([]);
  });
});

// Unique constraints and plain unique indexes (no expression, no predicate), per table: their
// column lists, sorted.
const uniqueKeysOf = async (): Promise<Map<string, string[][]>> => {
  const { rows } = await db.query<{ relation: string; columns: string[] }>(
    `SELECT c."relname" AS "relation",
            array(SELECT a."attname"::text FROM unnest(i."indkey") k
                    JOIN pg_attribute a ON a."attrelid" = i."indrelid" AND a."attnum" = k
                   ORDER BY a."attname") AS "columns"
       FROM pg_index i
       JOIN pg_class c ON c."oid" = i."indrelid"
       JOIN pg_namespace n ON n."oid" = c."relnamespace" AND n."nspname" = 'public'
      WHERE i."indisunique" AND NOT i."indisprimary" AND i."indexprs" IS NULL
        AND i."indpred" IS NULL`,
  );
  const keys = new Map<string, string[][]>();
  for (const row of rows) keys.set(row.relation, [...(keys.get(row.relation) ?? []), row.columns]);
  return keys;
};

const keyText = (columns: readonly string[]): string => [...columns].sort().join(',');

describe('natural keys', () => {
  // pinejs serves every natural key in key position, e.g. service(application=1,service_name='x')
  // (balena-sdk's pine.getOrCreate reads by it): each unique constraint over visible fields is an
  // alternate key of its resource, and each alternate key is backed by a unique constraint (a
  // read by key returns at most one row).
  it('declares every unique constraint as an alternate key, and nothing else', async () => {
    const unique = await uniqueKeysOf();
    expect(unique.get('service')).toEqual([['application', 'service_name']]);
    const problems: string[] = [];
    for (const resource of v7Model.resources.values()) {
      const declared = resource.alternateKeys.map(keyText);
      const constraints = (unique.get(resource.name) ?? []).map(keyText);
      for (const columns of unique.get(resource.name) ?? []) {
        const visible = columns.every((column) => {
          const field = resource.fields.get(column);
          return field !== undefined && field.hidden !== true && field.column === column;
        });
        if (visible && !declared.includes(keyText(columns))) {
          problems.push(`${resource.name}: (${columns.join(', ')}) is unique but no alternate key`);
        }
      }
      for (const key of declared) {
        if (!constraints.includes(key)) {
          problems.push(`${resource.name}: alternate key (${key}) has no unique constraint`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
