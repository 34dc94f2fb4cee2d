import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { openDatabase } from './database.js';
import { migrate } from './migrate.js';

describe('migrations', () => {
  it('apply once, in one transaction, even when two processes start together', async () => {
    const adminUrl = inject('postgresAdminUrl');
    const name = `flotilla_t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const first = openDatabase(url.toString(), { max: 1 });
    const second = openDatabase(url.toString(), { max: 1 });
    try {
      const [a, b] = await Promise.all([migrate(first), migrate(second)]);
      const applied = [...a.applied, ...b.applied].sort();
      const recorded = await first.query<{ name: string }>(
        'SELECT name FROM flotilla_migration ORDER BY name',
      );
      expect(applied).toEqual(recorded.rows.map((row) => row.name));
      expect(recorded.rows.length).toBeGreaterThan(0);
      expect((await migrate(first)).applied).toEqual([]);
    } finally {
      await first.close();
      await second.close();
      await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`);
      await admin.end();
    }
  });
});
