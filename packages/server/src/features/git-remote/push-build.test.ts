import { describe, expect, it } from 'vitest';
import { quarantineOf } from './push-build.js';

describe('the quarantine directory a pre-receive hook names', () => {
  const repository = '/data/git/0123456789abcdef0123456789abcdef.git';

  it("is used when it is git's own, inside the repository's objects", () => {
    expect(quarantineOf(repository, `${repository}/objects/tmp_objdir-incoming-Ab12_x`)).toBe(
      `${repository}/objects/tmp_objdir-incoming-Ab12_x`,
    );
  });

  it.each([
    ['none', null],
    ['another repository', '/data/git/other.git/objects/tmp_objdir-incoming-Ab12'],
    ['a way out', `${repository}/objects/tmp_objdir-incoming-Ab12/../../../../etc`],
    ['another folder', `${repository}/objects/pack`],
    ['a nested one', `${repository}/objects/tmp_objdir-incoming-Ab12/deeper`],
  ])('is ignored for %s', (_what, given) => {
    expect(quarantineOf(repository, given)).toBeUndefined();
  });
});
