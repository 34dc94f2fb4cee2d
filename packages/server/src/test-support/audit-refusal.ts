import type { Queryable } from '../infra/db/database.js';

// Runs `work` while PostgreSQL refuses every insert into the audit log (a trigger), or only the
// records of `resource`, so a test can show that a change whose record cannot be written does not
// happen.
export const withAuditRefused = async (
  db: Queryable,
  work: () => Promise<void>,
  resource?: string,
): Promise<void> => {
  await db.query(`CREATE FUNCTION "refuse_audit"() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'audit log refused'; END $$`);
  // A trigger's WHEN takes no parameters: the resource is quoted as a literal.
  const only =
    resource === undefined ? '' : `WHEN (NEW."resource" = '${resource.replaceAll("'", "''")}')`;
  await db.query(`CREATE TRIGGER "refuse_audit" BEFORE INSERT ON "audit_log_entry"
    FOR EACH ROW ${only} EXECUTE FUNCTION "refuse_audit"()`);
  try {
    await work();
  } finally {
    await db.query(`DROP TRIGGER "refuse_audit" ON "audit_log_entry"`);
    await db.query(`DROP FUNCTION "refuse_audit"()`);
  }
};
