import { errorText } from '@flotilla/sdk/errors';
import { buildLogDisplayLines } from '@flotilla/shared/releases/builder-limits';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { type BuildProject, useBuildRelease, useImageBuilds } from './api-builds.js';

type Source = 'file' | 'url';

const isHttpUrl = (text: string): boolean => /^https?:\/\/\S+$/i.test(text.trim());

// Uploads a compose project (a .tar or .tar.gz holding docker-compose.yml) or gives the builder a
// tarball URL, shows the build log as the server writes it (the last 2,999 lines) and the outcome,
// with a link to the new release.
export const CreateReleaseDialog = ({
  fleetId,
  releasesPath,
  open,
  onClose,
}: {
  fleetId: number;
  releasesPath: string;
  open: boolean;
  onClose: () => void;
}) => {
  const titleId = useId();
  const imageBuilds = useImageBuilds(open);
  const [source, setSource] = useState<Source>('file');
  const [file, setFile] = useState<File | null>(null);
  const [url, setUrl] = useState('');
  const [lines, setLines] = useState<string[]>([]);
  const build = useBuildRelease(fleetId, {
    onStart: () => setLines([]),
    onLine: (line) => setLines((kept) => [...kept, line].slice(-buildLogDisplayLines)),
  });
  const project: BuildProject | null =
    source === 'file' ? file && { file } : isHttpUrl(url) ? { url: url.trim() } : null;
  const close = () => {
    setFile(null);
    setUrl('');
    setLines([]);
    build.reset();
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Create release</DialogTitle>
      <DialogContent>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={source}
          onChange={(_event, value: Source | null) => {
            if (value === null) return;
            setSource(value);
            build.reset();
          }}
          aria-label="Project source"
          sx={{ mb: 2 }}
        >
          <ToggleButton value="file">Upload a file</ToggleButton>
          <ToggleButton value="url">From a URL</ToggleButton>
        </ToggleButtonGroup>
        <Typography sx={{ mb: 2 }}>
          A <code>.tar</code> or <code>.tar.gz</code> with a <code>docker-compose.yml</code> (or one{' '}
          <code>Dockerfile</code> at its root), and optionally a <code>balena.yml</code>.
          {imageBuilds?.buildsImages === false
            ? null
            : ' Services with a build step (build:) are built on this server, one build after the other.'}
        </Typography>
        {imageBuilds?.buildsImages === false ? (
          <Alert severity="info" sx={{ mb: 2 }}>
            This server does not build images
            {imageBuilds.unavailableReason === null ? '' : `: ${imageBuilds.unavailableReason}`}.
            Services naming an <code>image:</code> are released; a service with a{' '}
            <code>build:</code> step fails the release.
          </Alert>
        ) : null}
        {source === 'file' ? (
          <>
            <Button variant="outlined" component="label">
              Choose project file
              <input
                hidden
                type="file"
                accept=".tar,.tar.gz,.tgz,application/gzip,application/x-tar"
                aria-label="Project file"
                onChange={(event) => {
                  setFile(event.target.files?.[0] ?? null);
                  build.reset();
                }}
              />
            </Button>
            <Typography component="span" sx={{ ml: 2 }} color="text.secondary">
              {file?.name ?? 'No file chosen'}
            </Typography>
          </>
        ) : (
          <TextField
            fullWidth
            label="Tarball URL"
            placeholder="https://github.com/owner/repo/archive/refs/heads/main.tar.gz"
            value={url}
            onChange={(event) => {
              setUrl(event.target.value);
              build.reset();
            }}
            error={url.trim() !== '' && !isHttpUrl(url)}
            helperText={
              url.trim() !== '' && !isHttpUrl(url)
                ? 'An http or https URL'
                : 'The server downloads it (public addresses only)'
            }
          />
        )}
        {build.isError ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorText(build.error) ?? 'Could not create the release'}
          </Alert>
        ) : null}
        {build.data ? (
          <Alert
            sx={{ mt: 2 }}
            severity={build.data.status === 'success' ? 'success' : 'error'}
            action={
              <Button
                color="inherit"
                size="small"
                component={RouterLink}
                to={`${releasesPath}/${build.data.releaseId}`}
              >
                Open release
              </Button>
            }
          >
            {build.data.status === 'success'
              ? 'The release was created.'
              : build.data.status === 'cancelled'
                ? 'The release was created, but its build was cancelled.'
                : 'The release was created, but its build failed.'}
          </Alert>
        ) : null}
        {build.isPending || lines.length > 0 ? (
          <Box
            component="pre"
            aria-label="Build log"
            aria-live="polite"
            sx={{
              mt: 2,
              mb: 0,
              p: 1.5,
              bgcolor: 'grey.900',
              color: 'grey.100',
              borderRadius: 1,
              fontSize: 13,
              whiteSpace: 'pre-wrap',
              maxHeight: 300,
              overflowY: 'auto',
            }}
          >
            {lines.length === 0 ? 'Starting the build…' : lines.join('\n')}
          </Box>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{build.data ? 'Done' : 'Cancel'}</Button>
        {build.data ? null : (
          <Button
            variant="contained"
            disabled={project === null || build.isPending}
            onClick={() => project && build.mutate(project)}
          >
            {build.isPending ? 'Creating…' : 'Create'}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
};
