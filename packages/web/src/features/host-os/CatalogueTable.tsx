import type { CatalogueRelease } from '@flotilla/shared/host-os/catalogue';
import type { OsImage } from '@flotilla/shared/host-os/os-image';
import ImageIcon from '@mui/icons-material/AlbumOutlined';
import RestoreIcon from '@mui/icons-material/RestoreOutlined';
import BlockIcon from '@mui/icons-material/BlockOutlined';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { DeleteAction, EditAction, RowAction } from '../../ui/RowActions.js';

export type CatalogueAction = 'edit' | 'toggle' | 'remove' | 'image';

// How a release is named in labels and dialogs: "raspberrypi4-64 6.0.13 prod".
export const releaseName = (release: CatalogueRelease): string =>
  [release.deviceType ?? release.cpuArchitecture, release.rawVersion, release.variant]
    .filter((part) => part !== '')
    .join(' ');

const variantLabel = (variant: string): string =>
  variant === 'prod' ? 'Production' : variant === 'dev' ? 'Development' : 'Unified';

// Long texts (known issues, image references) stay on one line; the whole text is in the tooltip.
const Clipped = ({ text, code = false }: { text: string | null; code?: boolean }) =>
  text === null || text === '' ? (
    <Typography variant="body2" color="text.secondary">
      —
    </Typography>
  ) : (
    <Tooltip title={text}>
      <Typography
        variant="body2"
        component={code ? 'code' : 'span'}
        sx={{ display: 'block', maxWidth: 160, overflow: 'hidden', textOverflow: 'ellipsis' }}
        noWrap
      >
        {text}
      </Typography>
    </Tooltip>
  );

// One kind of catalogue release (OS or supervisor), newest version first per device type or
// architecture, as the server lists them.
export const CatalogueTable = ({
  kind,
  releases,
  images,
  pending,
  onAction,
}: {
  kind: CatalogueRelease['kind'];
  releases: readonly CatalogueRelease[];
  // The provisioning images by release id (OS releases only).
  images: ReadonlyMap<number, OsImage>;
  pending: boolean;
  onAction: (action: CatalogueAction, release: CatalogueRelease) => void;
}) => (
  <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
    <Table
      size="small"
      aria-label={kind === 'os' ? 'OS releases' : 'Supervisor releases'}
      // Narrower gutters: every column fits a 1366 px screen beside the navigation.
      sx={{ '& td, & th': { px: 1.25 } }}
    >
      <TableHead>
        <TableRow>
          <TableCell>{kind === 'os' ? 'Device type' : 'Architecture'}</TableCell>
          <TableCell>Version</TableCell>
          {kind === 'os' ? <TableCell>Variant</TableCell> : null}
          <TableCell>Phase</TableCell>
          <TableCell>Known issues</TableCell>
          <TableCell>Updater image</TableCell>
          {kind === 'os' ? <TableCell>OS image</TableCell> : null}
          <TableCell align="right">Devices</TableCell>
          <TableCell />
        </TableRow>
      </TableHead>
      <TableBody>
        {releases.map((release) => {
          const name = releaseName(release);
          return (
            <TableRow key={release.id}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <code>{release.deviceType ?? release.cpuArchitecture}</code>
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                {release.rawVersion}
                {release.invalidated ? (
                  <Chip size="small" color="warning" label="Invalidated" sx={{ ml: 1 }} />
                ) : null}
              </TableCell>
              {kind === 'os' ? <TableCell>{variantLabel(release.variant)}</TableCell> : null}
              <TableCell>{release.phase ?? '—'}</TableCell>
              <TableCell>
                <Clipped text={release.knownIssues} />
              </TableCell>
              <TableCell>
                <Clipped text={release.updaterImage} code />
              </TableCell>
              {kind === 'os' ? (
                <TableCell>
                  <Clipped text={images.get(release.id)?.filename ?? null} code />
                </TableCell>
              ) : null}
              <TableCell align="right">{release.devices}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                <EditAction name={name} denied={null} onClick={() => onAction('edit', release)} />
                {kind === 'os' ? (
                  <RowAction
                    label={`OS image of ${name}`}
                    title="OS image: what Add device offers to flash"
                    icon={<ImageIcon fontSize="small" />}
                    denied={null}
                    onClick={() => onAction('image', release)}
                  />
                ) : null}
                <RowAction
                  label={`${release.invalidated ? 'Restore' : 'Invalidate'} ${name}`}
                  title={
                    release.invalidated
                      ? 'Restore: offer this release again'
                      : 'Invalidate: stop offering this release'
                  }
                  icon={
                    release.invalidated ? (
                      <RestoreIcon fontSize="small" />
                    ) : (
                      <BlockIcon fontSize="small" />
                    )
                  }
                  denied={pending ? 'Saving…' : null}
                  onClick={() => onAction('toggle', release)}
                />
                <DeleteAction
                  name={name}
                  title="Remove from the catalogue"
                  denied={null}
                  onClick={() => onAction('remove', release)}
                />
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  </Paper>
);
