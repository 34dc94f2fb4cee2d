import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Comments say what the code does and why, in the product's own words: a citation of the
// specification (its document and section number, or a section sign) tells a reader nothing they can check
// here, so no comment in the sources may hold one.

const root = fileURLToPath(new URL('..', import.meta.url));
const sourceExtensions = ['.ts', '.tsx', '.mjs'];
const skippedFolders = new Set(['node_modules', 'dist', 'coverage']);

// Built from pieces so that this file does not match itself.
const citations = [
  new RegExp(`\\bseed ${'0'}0\\d`, 'i'),
  new RegExp('\u00a7'),
  new RegExp(`\\bseed ${'s'}ection`, 'i'),
];

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) {
      return skippedFolders.has(entry.name) ? [] : sourceFiles(path.join(dir, entry.name));
    }
    return sourceExtensions.some((extension) => entry.name.endsWith(extension))
      ? [path.join(dir, entry.name)]
      : [];
  });

// The comments of a source file with the line each starts on: `//` to the end of the line, and
// `/* ... */` blocks.
const commentsOf = (source: string): { line: number; text: string }[] => {
  const comments: { line: number; text: string }[] = [];
  for (const match of source.matchAll(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g)) {
    const line = source.slice(0, match.index).split('\n').length;
    comments.push({ line, text: match[0] });
  }
  return comments;
};

const citationsIn = (file: string, source: string): string[] =>
  commentsOf(source)
    .filter((comment) => citations.some((pattern) => pattern.test(comment.text)))
    .map((comment) => `${file}:${comment.line}: ${comment.text.split('\n')[0]?.trim() ?? ''}`);

describe('specification citations in comments', () => {
  it('finds the sources to read', () => {
    const files = ['packages', 'scripts'].flatMap((dir) => sourceFiles(path.join(root, dir)));
    expect(files.length).toBeGreaterThan(500);
    expect(files.some((file) => file.includes(`${path.sep}node_modules${path.sep}`))).toBe(false);
  });

  it('recognises a citation in a line comment and in a block comment, not in code', () => {
    const doctored = [
      `// Rank of a role (seed ${'0'}00 section 6.1).`,
      'const rank = 1;',
      '/**',
      ` * Public device URLs (seed ${'0'}01 ${'\u00a7'}4).`,
      ' */',
      `const text = 'a seed ${'0'}01 string, not a comment';`,
    ].join('\n');
    expect(citationsIn('doctored.ts', doctored)).toEqual([
      `doctored.ts:1: // Rank of a role (seed ${'0'}00 section 6.1).`,
      'doctored.ts:3: /**',
    ]);
    expect(citationsIn('clean.ts', '// Rank of a role: lower is higher.\nconst rank = 1;')).toEqual(
      [],
    );
  });

  it('are in no comment of packages/, scripts/ or the root configuration', () => {
    const rootConfiguration = ['eslint.config.mjs', 'vitest.config.ts'].map((file) =>
      path.join(root, file),
    );
    const found = ['packages', 'scripts']
      .flatMap((dir) => sourceFiles(path.join(root, dir)))
      .concat(rootConfiguration)
      .flatMap((file) => citationsIn(path.relative(root, file), readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });
});
