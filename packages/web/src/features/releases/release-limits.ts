// Console constants of the release pages.

// Release list page size.
export const releaseListPageSize = 50;
// Release list and release page refresh.
export const releaseListRefreshMs = 6000;
// Release picker page size, and its refetch while open.
export const releasePickerPageSize = 50;
export const releasePickerRefreshMs = 15_000;
// The picker searches once typing has paused this long.
export const releasePickerDebounceMs = 300;
// The picker's popup (its list and "Load more") is at most this tall; the list scrolls inside.
export const releasePickerPopupMaxHeight = 300;
