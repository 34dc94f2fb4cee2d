import { describe, expect, it } from 'vitest';
import { type Generation, isGenerationList, planCarryOver } from './previous-assets.js';

const day = 24 * 3600_000;
const now = new Date('2026-03-10T12:00:00.000Z');
const daysAgo = (days: number): string => new Date(now.getTime() - days * day).toISOString();

describe('planCarryOver', () => {
  it("keeps the previous build's files that the new build does not have", () => {
    const plan = planCarryOver({
      presentFiles: ['assets/index-A.js', 'assets/index-A.js.br', 'assets/shared-S.js'],
      generations: [],
      newFiles: new Set(['assets/index-B.js', 'assets/shared-S.js', 'index.html']),
      now,
    });
    expect(plan.carry).toEqual(['assets/index-A.js', 'assets/index-A.js.br']);
    expect(plan.generations).toEqual([
      { retiredAt: now.toISOString(), files: ['assets/index-A.js', 'assets/index-A.js.br'] },
    ]);
  });

  it('drops generations beyond the number of builds kept or older than the age limit', () => {
    const generations: Generation[] = [
      { retiredAt: daysAgo(1), files: ['assets/b.js'] },
      { retiredAt: daysAgo(2), files: ['assets/c.js'] },
      { retiredAt: daysAgo(3), files: ['assets/d.js'] },
    ];
    const present = ['assets/a.js', 'assets/b.js', 'assets/c.js', 'assets/d.js'];
    const byCount = planCarryOver({
      presentFiles: present,
      generations,
      newFiles: new Set(['assets/new.js']),
      now,
      rules: { keepBuilds: 2, maxAgeMs: 30 * day },
    });
    expect(byCount.carry).toEqual(['assets/a.js', 'assets/b.js']);
    const byAge = planCarryOver({
      presentFiles: present,
      generations,
      newFiles: new Set(['assets/new.js']),
      now,
      rules: { keepBuilds: 10, maxAgeMs: 2.5 * day },
    });
    expect(byAge.carry).toEqual(['assets/a.js', 'assets/b.js', 'assets/c.js']);
  });

  it('keeps three earlier builds for two weeks by default', () => {
    const plan = planCarryOver({
      presentFiles: ['assets/a.js', 'assets/b.js', 'assets/c.js', 'assets/d.js'],
      generations: [
        { retiredAt: daysAgo(1), files: ['assets/b.js'] },
        { retiredAt: daysAgo(13), files: ['assets/c.js'] },
        { retiredAt: daysAgo(13.5), files: ['assets/d.js'] },
      ],
      newFiles: new Set(['assets/new.js']),
      now,
    });
    expect(plan.carry).toEqual(['assets/a.js', 'assets/b.js', 'assets/c.js']);
    const aged = planCarryOver({
      presentFiles: ['assets/b.js'],
      generations: [{ retiredAt: daysAgo(15), files: ['assets/b.js'] }],
      newFiles: new Set(['assets/new.js']),
      now,
    });
    expect(aged.carry).toEqual([]);
  });

  it('forgets files that are gone from disk or belong to the new build again', () => {
    const plan = planCarryOver({
      presentFiles: ['assets/same.js', 'assets/back.js'],
      generations: [{ retiredAt: daysAgo(1), files: ['assets/gone.js', 'assets/back.js'] }],
      newFiles: new Set(['assets/same.js', 'assets/back.js']),
      now,
    });
    expect(plan.carry).toEqual([]);
    expect(plan.generations).toEqual([]);
  });

  it('reads only a well-formed ledger', () => {
    expect(isGenerationList([{ retiredAt: daysAgo(1), files: ['assets/a.js'] }])).toBe(true);
    expect(isGenerationList([{ retiredAt: 1, files: [] }])).toBe(false);
    expect(isGenerationList({})).toBe(false);
  });
});
