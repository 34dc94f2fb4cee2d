// The app changelog's reminders: the last version the user read is
// kept in localStorage; a newer version shows a bubble on the button, and a newer major version
// opens the dialog by itself. A first visit only records the version (nothing to catch up on).

export const changelogSeenKey = 'flotilla.changelog-last-viewed';

export type ChangelogState = { autoOpen: boolean; unread: boolean };

const majorOf = (version: string): number | null => {
  const match = /^(\d+)\.\d+\.\d+/.exec(version);
  return match ? Number(match[1]) : null;
};

export const changelogStateOf = (seen: string | null, current: string): ChangelogState => {
  if (seen === null || seen === current) return { autoOpen: false, unread: false };
  const seenMajor = majorOf(seen);
  const currentMajor = majorOf(current);
  return {
    unread: true,
    autoOpen: seenMajor === null || (currentMajor !== null && seenMajor < currentMajor),
  };
};

// The newest version a changelog names: its first "## <version>" heading.
export const latestVersionOf = (markdown: string): string | null =>
  /^##\s+v?(\d+\.\d+\.\d+)/m.exec(markdown)?.[1] ?? null;

export const readSeenVersion = (): string | null => {
  try {
    return window.localStorage.getItem(changelogSeenKey);
  } catch {
    return null;
  }
};

export const writeSeenVersion = (version: string): void => {
  try {
    window.localStorage.setItem(changelogSeenKey, version);
  } catch {
    // Storage refused: the reminder comes back next time, nothing worse.
  }
};
