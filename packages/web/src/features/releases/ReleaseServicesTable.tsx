import DownloadIcon from '@mui/icons-material/Download';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { downloadText } from '../../ui/download.js';
import { DockerfileDialog } from './DockerfileDialog.js';
import { byteSize } from './release-format.js';
import { dockerfileFileName } from './release-files.js';
import type { ReleaseService } from './release-services.js';

// The release's services, each with its image's status and size, its Dockerfile to view or
// download (an image pulled as it is has none), and why its build failed.
export const ReleaseServicesTable = ({ services }: { services: readonly ReleaseService[] }) => {
  const [viewing, setViewing] = useState<{ service: string; dockerfile: string } | null>(null);
  return (
    <Paper variant="outlined" component="section" aria-labelledby="release-services-title">
      <Typography id="release-services-title" variant="h3" sx={{ p: 2, pb: 1 }}>
        Services
      </Typography>
      <Table size="small" aria-label="Services and images">
        <TableHead>
          <TableRow>
            <TableCell>Service</TableCell>
            <TableCell>Image status</TableCell>
            <TableCell>Image size</TableCell>
            <TableCell>Dockerfile</TableCell>
            <TableCell>Notes</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {services.length === 0 ? (
            <TableRow>
              <TableCell colSpan={5}>
                <Typography color="text.secondary">This release has no images.</Typography>
              </TableCell>
            </TableRow>
          ) : null}
          {services.map(({ name, image }) => {
            const dockerfile = image.dockerfile;
            return (
              <TableRow key={image.id}>
                <TableCell>{name}</TableCell>
                <TableCell>{image.status}</TableCell>
                <TableCell>{image.image_size ? byteSize(image.image_size) : '—'}</TableCell>
                <TableCell>
                  {dockerfile ? (
                    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                      <Button
                        size="small"
                        aria-label={`View the Dockerfile of ${name}`}
                        onClick={() => setViewing({ service: name, dockerfile })}
                      >
                        View
                      </Button>
                      <IconButton
                        size="small"
                        aria-label={`Download the Dockerfile of ${name}`}
                        title="Download"
                        onClick={() => downloadText(dockerfile, dockerfileFileName(name))}
                      >
                        <DownloadIcon fontSize="small" />
                      </IconButton>
                    </Stack>
                  ) : (
                    <Typography variant="body2" color="text.secondary">
                      No Dockerfile available
                    </Typography>
                  )}
                </TableCell>
                <TableCell>{image.error_message ?? ''}</TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {viewing === null ? null : (
        <DockerfileDialog
          service={viewing.service}
          dockerfile={viewing.dockerfile}
          onClose={() => setViewing(null)}
        />
      )}
    </Paper>
  );
};
