// Which files of earlier builds stay in dist/assets after a new build, so a browser tab opened
// before an upgrade or restart can still load the chunks it knows.
// A generation is the set of files one build had that the next build no longer has.
export type Generation = { retiredAt: string; files: string[] };

export type RetentionRules = { keepBuilds: number; maxAgeMs: number };

// Three earlier builds, for at most two weeks: tabs live that long; dist stays small.
export const defaultRetention: RetentionRules = { keepBuilds: 3, maxAgeMs: 14 * 24 * 3600_000 };

export type CarryOverPlan = { carry: string[]; generations: Generation[] };

// presentFiles: the asset files in dist before the new build (the previous build's own files
// plus those it carried); generations: what it carried, as recorded; newFiles: the new build's.
export const planCarryOver = (input: {
  presentFiles: readonly string[];
  generations: readonly Generation[];
  newFiles: ReadonlySet<string>;
  now: Date;
  rules?: RetentionRules;
}): CarryOverPlan => {
  const rules = input.rules ?? defaultRetention;
  const present = new Set(input.presentFiles);
  const carried = new Set(input.generations.flatMap((generation) => generation.files));
  const previousBuild = input.presentFiles.filter((file) => !carried.has(file));
  const candidates: Generation[] = [
    ...(previousBuild.length > 0
      ? [{ retiredAt: input.now.toISOString(), files: previousBuild }]
      : []),
    ...input.generations,
  ];
  const oldest = input.now.getTime() - rules.maxAgeMs;
  const generations = candidates
    .filter((generation) => Date.parse(generation.retiredAt) >= oldest)
    .slice(0, rules.keepBuilds)
    .map((generation) => ({
      retiredAt: generation.retiredAt,
      files: generation.files.filter((file) => present.has(file) && !input.newFiles.has(file)),
    }))
    .filter((generation) => generation.files.length > 0);
  return {
    carry: [...new Set(generations.flatMap((generation) => generation.files))],
    generations,
  };
};

export const isGenerationList = (value: unknown): value is Generation[] =>
  Array.isArray(value) &&
  value.every(
    (item: unknown) =>
      typeof item === 'object' &&
      item !== null &&
      'retiredAt' in item &&
      typeof item.retiredAt === 'string' &&
      'files' in item &&
      Array.isArray(item.files) &&
      item.files.every((file: unknown) => typeof file === 'string'),
  );
