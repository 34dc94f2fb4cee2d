import { dashboardVersion } from '@flotilla/shared/constants/limits';
import { clientVersion } from '@flotilla/sdk/version';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { lazy, Suspense, useEffect, useState } from 'react';
import { changelogStateOf, readSeenVersion, writeSeenVersion } from './changelog-state.js';

// Loaded when opened: the header of every cold load does not compile the dialog and its markdown.
const ChangelogDialog = lazy(async () => ({
  default: (await import('./ChangelogDialog.js')).ChangelogDialog,
}));

// The header's version button: Flotilla's version and the dashboard behaviour it implements; a
// bubble while a newer version is unread; opens by itself for a newer major version; closing
// records the version as read.
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
        aria-label={`Changelog, version ${version}, dashboard ${dashboardVersion}${unread ? ', new' : ''}`}
        title={`Flotilla ${version}, implementing dashboard ${dashboardVersion}`}
        sx={{ textTransform: 'none' }}
      >
        <Badge variant="dot" color="secondary" invisible={!unread}>
          v{version}
        </Badge>
        <Box
          component="span"
          sx={{ ml: 1, opacity: 0.75, fontSize: '0.75rem', display: { xs: 'none', sm: 'inline' } }}
        >
          dashboard {dashboardVersion}
        </Box>
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <ChangelogDialog version={version} onClose={close} />
        </Suspense>
      ) : null}
    </>
  );
};
