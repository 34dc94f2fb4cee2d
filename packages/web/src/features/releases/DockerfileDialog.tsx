import DownloadIcon from '@mui/icons-material/Download';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { downloadText } from '../../ui/download.js';
import { dockerfileFileName } from './release-files.js';

// One service's Dockerfile as its image was built from it, with a download.
export const DockerfileDialog = ({
  service,
  dockerfile,
  onClose,
}: {
  service: string;
  dockerfile: string;
  onClose: () => void;
}) => (
  <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="dockerfile-title">
    <DialogTitle id="dockerfile-title">Dockerfile of {service}</DialogTitle>
    <DialogContent dividers>
      <Box
        component="pre"
        aria-label={`Dockerfile of ${service}`}
        sx={{ m: 0, fontSize: 13, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
      >
        {dockerfile}
      </Box>
    </DialogContent>
    <DialogActions>
      <Button
        startIcon={<DownloadIcon />}
        onClick={() => downloadText(dockerfile, dockerfileFileName(service))}
      >
        Download
      </Button>
      <Button onClick={onClose}>Close</Button>
    </DialogActions>
  </Dialog>
);
