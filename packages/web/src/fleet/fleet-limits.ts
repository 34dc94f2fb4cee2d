// Console constants of the fleet pages that the shared limits do not carry: refresh intervals
// and list sizes of the console alone.

// Release list and release card refresh.
export const releaseCardRefreshMs = 6000;
// Releases shown on the summary card.
export const recentReleaseCount = 5;
// Support access granted from the settings page defaults to this many days ahead.
export const supportAccessDefaultDays = 5;
