// Console constants of the release pages (seed 001 section 9).

// Release list page size.
export const releaseListPageSize = 50;
// Release list and release page refresh.
export const releaseListRefreshMs = 6000;
