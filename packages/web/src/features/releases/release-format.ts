// Display formats of the release pages.

const byteUnits = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

// Image sizes in bytes, in decimal units as registries show them: "84 MB".
export const byteSize = (bytes: number): string => {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < byteUnits.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = value >= 100 || unit === 0 ? 0 : 1;
  return `${value.toFixed(digits)} ${byteUnits[unit]}`;
};

// How long the build took, from its start to its end; "—" while it has not ended.
export const buildDuration = (release: {
  start_timestamp: string | null;
  end_timestamp: string | null;
}): string => {
  if (release.start_timestamp === null || release.end_timestamp === null) return '—';
  const seconds = Math.max(
    0,
    Math.round((Date.parse(release.end_timestamp) - Date.parse(release.start_timestamp)) / 1000),
  );
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
};
