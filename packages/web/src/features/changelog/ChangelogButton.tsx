import { clientVersion } from '@flotilla/sdk/version';
import Badge from '@mui/material/Badge';
import Button from '@mui/material/Button';
import { lazy, Suspense, useEffect, useState } from 'react';
import { changelogStateOf, readSeenVersion, writeSeenVersion } from './changelog-state.js';

// The dialog (and its Markdown) loads when it first opens.
const ChangelogDialog = lazy(async () => ({
  default: (await import('./ChangelogDialog.js')).ChangelogDialog,
}));

// The header's version button (seed 001 "Changelog dialogs"): a bubble while a newer version is
// unread; opens by itself for a newer major version; closing records the version as read.
export const ChangelogButton = ({ version = clientVersion }: { version?: string }) => {
  const [initial] = useState(() => changelogStateOf(readSeenVersion(), version));
  const [unread, setUnread] = useState(initial.unread);
  const [open, setOpen] = useState(initial.autoOpen);
  useEffect(() => {
    // A first visit starts from this version.
    if (readSeenVersion() === null) writeSeenVersion(version);
  }, [version]);
  const close = () => {
    writeSeenVersion(version);
    setUnread(false);
    setOpen(false);
  };
  return (
    <>
      <Button
        color="inherit"
        size="small"
        onClick={() => setOpen(true)}
        aria-label={`Changelog, version ${version}${unread ? ', new' : ''}`}
        sx={{ textTransform: 'none' }}
      >
        <Badge variant="dot" color="secondary" invisible={!unread}>
          v{version}
        </Badge>
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <ChangelogDialog onClose={close} />
        </Suspense>
      ) : null}
    </>
  );
};
