import type { WaveSpec } from '@flotilla/shared/rollouts/rollout-types';

// The plan form's fields turned into waves: an optional canary tag first, then the
// percentages ("1, 10, 50, 100").
export type PlanFields = { percents: string; canaryTag: string };

export const wavesOf = (fields: PlanFields): { waves: WaveSpec[] } | { error: string } => {
  const parts = fields.percents
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const percents = parts.map(Number);
  if (parts.length === 0 || percents.some((percent) => !Number.isInteger(percent))) {
    return { error: 'Give the waves as whole percentages, such as 1, 10, 50, 100' };
  }
  const waves: WaveSpec[] = [];
  const tag = fields.canaryTag.trim();
  if (tag !== '') {
    const [key = '', ...value] = tag.split('=');
    waves.push(
      value.length === 0
        ? { tag: { key: key.trim() } }
        : { tag: { key: key.trim(), value: value.join('=').trim() } },
    );
  }
  for (const percent of percents) waves.push({ percent });
  return { waves };
};
