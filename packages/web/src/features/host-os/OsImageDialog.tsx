import { errorText } from '@flotilla/sdk/errors';
import type { CatalogueRelease } from '@flotilla/shared/host-os/catalogue';
import type { OsImage } from '@flotilla/shared/host-os/os-image';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { releaseName } from './CatalogueTable.js';
import { type ImageWrite, useWriteOsImage } from './api-images.js';

export const imageSize = (bytes: number): string =>
  bytes >= 1024 ** 3
    ? `${(bytes / 1024 ** 3).toFixed(1)} GiB`
    : `${(bytes / 1024 ** 2).toFixed(1)} MiB`;

const doneText = (write: ImageWrite, name: string): string =>
  write.kind === 'remove'
    ? `The OS image of ${name} was removed`
    : `${name} has an OS image: Add device offers it`;

// The provisioning image of one OS release: upload a file, or have the server fetch a public
// URL (it keeps a copy), or remove it. Add device offers it with the fleet's config.json in.
export const OsImageDialog = ({
  release,
  image,
  onClose,
  onDone,
}: {
  release: CatalogueRelease;
  image: OsImage | undefined;
  onClose: () => void;
  onDone: (message: string) => void;
}) => {
  const name = releaseName(release);
  const write = useWriteOsImage((done) => onDone(doneText(done, name)));
  const [file, setFile] = useState<File | null>(null);
  const [url, setUrl] = useState('');
  const busy = write.isPending;
  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>OS image of {name}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {image === undefined ? (
            <Typography color="text.secondary">
              No image yet: Add device offers config.json and the agent command only.
            </Typography>
          ) : (
            <Typography>
              <code>{image.filename}</code>, {imageSize(image.size)}
              {image.sourceUrl === null ? ', uploaded' : `, fetched from ${image.sourceUrl}`}
              <br />
              <Typography component="span" variant="body2" color="text.secondary">
                SHA-256 {image.sha256}
              </Typography>
            </Typography>
          )}
          <Typography variant="body2" color="text.secondary">
            An unpacked disk image (.img) whose first partition is the FAT boot partition, as
            balenaOS ships them. A new image replaces the current one.
          </Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Button variant="outlined" component="label" disabled={busy}>
              Choose image file
              <input
                hidden
                type="file"
                accept=".img,application/octet-stream"
                aria-label="Image file"
                onChange={(event) => setFile(event.target.files?.[0] ?? null)}
              />
            </Button>
            <Typography variant="body2">{file === null ? 'No file chosen' : file.name}</Typography>
            <Button
              variant="contained"
              disabled={busy || file === null}
              onClick={() => {
                if (file !== null) write.mutate({ kind: 'upload', release: release.id, file });
              }}
            >
              Upload
            </Button>
          </Stack>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
            <TextField
              size="small"
              fullWidth
              label="Or the image's public URL"
              helperText="The server downloads it once and keeps a copy"
              value={url}
              onChange={(event) => setUrl(event.target.value)}
            />
            <Button
              variant="contained"
              disabled={busy || url.trim() === ''}
              onClick={() => write.mutate({ kind: 'link', release: release.id, url: url.trim() })}
            >
              Fetch
            </Button>
          </Stack>
          {busy ? <Alert severity="info">Transferring the image…</Alert> : null}
          {write.isError ? (
            <Alert severity="error">{errorText(write.error) ?? 'Could not save the image'}</Alert>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        {image === undefined ? null : (
          <Button
            color="error"
            disabled={busy}
            onClick={() => write.mutate({ kind: 'remove', release: release.id })}
            sx={{ mr: 'auto' }}
          >
            Remove image
          </Button>
        )}
        <Button onClick={onClose} disabled={busy}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
};
