import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useClient } from '../../app/client.js';
import { applicationKey } from '../fleets/application/application-detail.js';

export type BuildResult = { releaseId: number; status: 'success' | 'failed'; log: string[] };

const contentTypeOf = (file: File): string =>
  /\.tar$/i.test(file.name) ? 'application/x-tar' : 'application/gzip';

// Uploads a compose project (a .tar or .tar.gz holding docker-compose.yml) to the server's builder
// and shows the build's log and outcome, with a link to the new release.
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
  const client = useClient();
  const queryClient = useQueryClient();
  const titleId = useId();
  const [file, setFile] = useState<File | null>(null);
  const build = useMutation({
    meta: { inlineError: true },
    mutationFn: async (project: File) =>
      await client.request<BuildResult>({
        method: 'POST',
        path: `/builder/v1/applications/${fleetId}/releases`,
        upload: { data: project, contentType: contentTypeOf(project) },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: applicationKey(fleetId) }),
  });
  const close = () => {
    setFile(null);
    build.reset();
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Create release</DialogTitle>
      <DialogContent>
        <Typography sx={{ mb: 2 }}>
          Upload your project as a <code>.tar</code> or <code>.tar.gz</code> with a{' '}
          <code>docker-compose.yml</code> whose services name their images (<code>image:</code>),
          and optionally a <code>balena.yml</code>. This server does not build images.
        </Typography>
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
        {build.isError ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorText(build.error) ?? 'Could not create the release'}
          </Alert>
        ) : null}
        {build.data ? (
          <Box sx={{ mt: 2 }}>
            <Alert
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
                : 'The release was created, but its build failed.'}
            </Alert>
            <Box
              component="pre"
              aria-label="Build log"
              sx={{
                mt: 1,
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
              {build.data.log.join('\n')}
            </Box>
          </Box>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{build.data ? 'Done' : 'Cancel'}</Button>
        {build.data ? null : (
          <Button
            variant="contained"
            disabled={file === null || build.isPending}
            onClick={() => file && build.mutate(file)}
          >
            {build.isPending ? 'Creating…' : 'Create'}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
};
