import { errorText } from '@flotilla/sdk/errors';
import type { CatalogueRelease } from '@flotilla/shared/host-os/catalogue';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { RequirePermission } from '../../api/session/guards.js';
import { isAdmin, useSession } from '../../api/session/useSession.js';
import { useToasts } from '../../ui/toasts.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useCatalogueReleases, useEditRelease } from './api.js';
import { CatalogueDialogs, type OpenDialog } from './CatalogueDialogs.js';
import { CatalogueSection } from './CatalogueSection.js';
import { useOsImages } from './api-images.js';
import { type CatalogueAction, releaseName } from './CatalogueTable.js';

// /admin/os-catalogue: the host OS and supervisor releases this installation offers its devices,
// kept by platform administrators (one by one, or from a catalogue file).
const Catalogue = () => {
  usePageTitle('OS catalogue');
  const releases = useCatalogueReleases();
  const toasts = useToasts();
  const [open, setOpen] = useState<OpenDialog>(null);
  const toggle = useEditRelease((release) =>
    toasts.show(
      'success',
      `${releaseName(release)} is ${release.invalidated ? 'invalidated' : 'offered again'}`,
    ),
  );
  const onAction = (action: CatalogueAction, release: CatalogueRelease) => {
    if (action === 'toggle') {
      toggle.mutate({ id: release.id, body: { invalidated: !release.invalidated } });
    } else {
      setOpen({ dialog: action, release });
    }
  };
  const rows = releases.data ?? [];
  // The images' list failing leaves the catalogue usable: the image column stays empty.
  const imageList = useOsImages();
  const images = new Map((imageList.data ?? []).map((image) => [image.release, image]));
  return (
    <Box>
      <Stack
        direction="row"
        sx={{ mb: 2, alignItems: 'center', justifyContent: 'space-between', gap: 1 }}
      >
        <Typography variant="h1">OS catalogue</Typography>
        <Stack direction="row" spacing={1}>
          <Button component={RouterLink} to="/admin" variant="outlined">
            Users
          </Button>
          <Button variant="outlined" onClick={() => setOpen({ dialog: 'import' })}>
            Import catalogue file
          </Button>
          <Button variant="contained" onClick={() => setOpen({ dialog: 'add' })}>
            Add release
          </Button>
        </Stack>
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        The host OS and supervisor releases devices can be updated to. Everyone reads them; only
        platform administrators change them.
      </Typography>
      {toggle.isError ? (
        <Alert severity="error" sx={{ mb: 2 }} onClose={() => toggle.reset()}>
          {errorText(toggle.error) ?? 'Could not change the release'}
        </Alert>
      ) : null}
      {releases.isPending ? (
        <Skeleton variant="rounded" height={240} aria-label="Loading" />
      ) : releases.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void releases.refetch()}>
              Retry
            </Button>
          }
        >
          {errorText(releases.error) ?? 'Could not load the OS catalogue'}
        </Alert>
      ) : rows.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 6, textAlign: 'center' }}>
          <Typography>No OS releases yet — add one or import a catalogue file.</Typography>
        </Paper>
      ) : (
        <>
          <CatalogueSection
            kind="os"
            releases={rows.filter((release) => release.kind === 'os')}
            images={images}
            pending={toggle.isPending}
            onAction={onAction}
          />
          <CatalogueSection
            kind="supervisor"
            releases={rows.filter((release) => release.kind === 'supervisor')}
            images={images}
            pending={toggle.isPending}
            onAction={onAction}
          />
        </>
      )}
      <CatalogueDialogs open={open} images={images} onClose={() => setOpen(null)} />
    </Box>
  );
};

export const HostOsCataloguePage = () => {
  const session = useSession();
  return (
    <RequirePermission allowed={isAdmin(session)} loading={false}>
      <Catalogue />
    </RequirePermission>
  );
};
