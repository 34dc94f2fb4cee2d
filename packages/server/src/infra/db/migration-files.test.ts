import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { migrationChecksum, migrationNamePattern, migrationsDir } from './migration-files.js';

describe('migration files', () => {
  it('are all named NNNN-words.sql, with unique numbers that increase with the name order', async () => {
    const names = (await readdir(migrationsDir)).sort();
    // A file the runner would skip silently is a migration that never applies.
    expect(names.filter((name) => !migrationNamePattern.test(name))).toEqual([]);
    const numbers = names.map((name) => Number(migrationNamePattern.exec(name)?.[1]));
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(numbers[0]).toBe(1);
  });

  it('have a checksum that ignores CRLF line endings only', () => {
    expect(migrationChecksum('SELECT 1;\r\nSELECT 2;\r\n')).toBe(
      migrationChecksum('SELECT 1;\nSELECT 2;\n'),
    );
    expect(migrationChecksum('SELECT 1;')).not.toBe(migrationChecksum('SELECT 2;'));
  });
});
