import { describe, expect, it } from 'vitest';
import { isIgnored, parseDockerignore } from './dockerignore.js';

describe('.dockerignore', () => {
  const rules = parseDockerignore(
    [
      '# build output',
      'node_modules',
      '*.log',
      'docs/**/*.md',
      '!docs/keep/README.md',
      '/tmp/',
      '',
    ].join('\n'),
  );

  it.each([
    ['node_modules', true],
    ['node_modules/left-pad/index.js', true],
    ['app.log', true],
    ['sub/app.log', false],
    ['docs/guide.md', true],
    ['docs/a/b/guide.md', true],
    ['docs/keep/README.md', false],
    ['tmp/cache', true],
    ['src/main.js', false],
    ['Dockerfile', false],
  ])('%s is ignored: %s', (path, ignored) => {
    expect(isIgnored(rules, path)).toBe(ignored);
  });
});
