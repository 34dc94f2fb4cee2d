import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const consoleSources = fileURLToPath(new URL('../../packages/web/src', import.meta.url));

// A console page composes sections from files of their own; one that grows past this many lines
// is holding a section (or its data access) that belongs beside it.
const mostPageLines = 150;

const pageFiles = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return pageFiles(path);
    return /Page\.tsx$/.test(entry.name) ? [path] : [];
  });

const linesOf = (path: string): number => readFileSync(path, 'utf8').trimEnd().split('\n').length;

const longPages = (folder: string, most: number): string[] =>
  pageFiles(folder)
    .filter((path) => linesOf(path) > most)
    .map((path) => `${relative(folder, path)} (${linesOf(path)} lines)`);

describe('console pages', () => {
  it('finds the pages', () => {
    expect(pageFiles(consoleSources).length).toBeGreaterThan(40);
  });

  it('reports a page longer than the limit', () => {
    // The same reading with a limit every page passes shows that the check sees long pages.
    expect(longPages(consoleSources, 10).length).toBeGreaterThan(0);
  });

  it(`are at most ${mostPageLines} lines each`, () => {
    expect(longPages(consoleSources, mostPageLines)).toEqual([]);
  });
});
