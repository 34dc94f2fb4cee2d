// Console constants of the release pages (seed 001 section 9).

// Release list page size.
export const releaseListPageSize = 50;
// Release list and release page refresh.
export const releaseListRefreshMs = 6000;
// Release picker page size, and its refetch while open (seed 001 "Other UI" and section 9).
export const releasePickerPageSize = 50;
export const releasePickerRefreshMs = 15_000;
// The picker searches once typing has paused this long.
export const releasePickerDebounceMs = 300;
