import type { PineFilter } from '@flotilla/sdk/pine';
import { releasePickerPageSize } from './release-limits.js';

// What the release picker reads: the fleet's successful final releases, newest first, one page of
// 50 at a time, searched on the server. Invalidated ones are listed too, to be shown disabled with
// their reason.

export const pickerSelect = [
  'id',
  'commit',
  'raw_version',
  'created_at',
  'is_invalidated',
  'invalidation_reason',
] as const;

// The longest search sent (longer text is cut, not refused: a version, a commit or a tag).
export const maxPickerSearch = 100;

export const pickerSearchText = (input: string): string =>
  input.trim().toLowerCase().slice(0, maxPickerSearch);

// A version (raw_version or semver) containing the text, a commit starting with it, or a tag
// whose key or value contains it; case-insensitive. Null for an empty search.
export const pickerSearchFilter = (search: string): PineFilter<'release'> | null => {
  const text = pickerSearchText(search);
  if (text === '') return null;
  return {
    $or: [
      { $contains: [{ $tolower: { $: 'raw_version' } }, text] },
      { $contains: [{ $tolower: { $: 'semver' } }, text] },
      { $startswith: [{ $tolower: { $: 'commit' } }, text] },
      {
        release_tag: {
          $any: {
            $alias: 't',
            $expr: {
              $or: [
                { $contains: [{ $tolower: { $: ['t', 'tag_key'] } }, text] },
                { $contains: [{ $tolower: { $: ['t', 'value'] } }, text] },
              ],
            },
          },
        },
      },
    ],
  };
};

export const pickerFilter = (fleetId: number, search: string): PineFilter<'release'> => {
  const base: PineFilter<'release'> = {
    belongs_to__application: fleetId,
    status: 'success',
    is_final: true,
  };
  const searched = pickerSearchFilter(search);
  return searched === null ? base : { $and: [base, searched] };
};

// The next page to ask for, or undefined when the last one was not full.
export const nextPickerPage = (last: readonly unknown[], pages: readonly unknown[]) =>
  last.length === releasePickerPageSize ? pages.length : undefined;
