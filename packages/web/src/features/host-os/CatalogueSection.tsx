import type { CatalogueRelease } from '@flotilla/shared/host-os/catalogue';
import type { OsImage } from '@flotilla/shared/host-os/os-image';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { type CatalogueAction, CatalogueTable } from './CatalogueTable.js';

const allTargets = '';

// The OS releases, filtered by device type, or the supervisor releases, by CPU architecture.
export const CatalogueSection = ({
  kind,
  releases,
  images,
  pending,
  onAction,
}: {
  kind: CatalogueRelease['kind'];
  releases: readonly CatalogueRelease[];
  images: ReadonlyMap<number, OsImage>;
  pending: boolean;
  onAction: (action: CatalogueAction, release: CatalogueRelease) => void;
}) => {
  const [target, setTarget] = useState(allTargets);
  const targetOf = (release: CatalogueRelease) => release.deviceType ?? release.cpuArchitecture;
  const targets = [...new Set(releases.map(targetOf))].sort();
  // A filter on a device type whose last release was removed shows everything again.
  const current = targets.includes(target) ? target : allTargets;
  const shown = current === allTargets ? releases : releases.filter((r) => targetOf(r) === current);
  const title = kind === 'os' ? 'OS releases' : 'Supervisor releases';
  const headingId = `catalogue-${kind}`;
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mb: 4 }}>
      <Stack direction="row" sx={{ mb: 1, alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="h2" id={headingId}>
          {title} ({releases.length})
        </Typography>
        {targets.length > 1 ? (
          <TextField
            select
            size="small"
            sx={{ minWidth: 220 }}
            label={kind === 'os' ? 'Device type' : 'Architecture'}
            value={current}
            onChange={(event) => setTarget(event.target.value)}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value={allTargets}>
              {kind === 'os' ? 'All device types' : 'All architectures'}
            </MenuItem>
            {targets.map((slug) => (
              <MenuItem key={slug} value={slug}>
                {slug}
              </MenuItem>
            ))}
          </TextField>
        ) : null}
      </Stack>
      {releases.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 3, textAlign: 'center' }}>
          <Typography color="text.secondary">
            {kind === 'os' ? 'No OS releases yet.' : 'No supervisor releases yet.'}
          </Typography>
        </Paper>
      ) : (
        <CatalogueTable
          kind={kind}
          releases={shown}
          images={images}
          pending={pending}
          onAction={onAction}
        />
      )}
    </Box>
  );
};
