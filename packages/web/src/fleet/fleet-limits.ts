// Console constants of the fleet pages that the shared limits do not carry (seed 001
// section 9 and "Other UI").

// Release list and release card refresh.
export const releaseCardRefreshMs = 6000;
// Releases shown on the summary card.
export const recentReleaseCount = 5;
// Support access granted from the settings page defaults to this many days ahead.
export const supportAccessDefaultDays = 5;
