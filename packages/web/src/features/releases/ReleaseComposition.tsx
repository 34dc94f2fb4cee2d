import DownloadIcon from '@mui/icons-material/Download';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { downloadText } from '../../ui/download.js';
import { compositionYaml } from './composition-yaml.js';
import { compositionFileName } from './release-files.js';

// The release's composition, shown and downloaded as the docker-compose.yml it stands for.
export const ReleaseComposition = ({
  fleetName,
  commit,
  composition,
}: {
  fleetName: string;
  commit: string;
  composition: unknown;
}) => {
  const yaml = compositionYaml(composition);
  return (
    <Paper variant="outlined" component="section" aria-labelledby="composition-title">
      <Stack direction="row" sx={{ alignItems: 'center', p: 2, pb: 1 }}>
        <Typography id="composition-title" variant="h3" sx={{ flex: 1 }}>
          Composition
        </Typography>
        <Button
          size="small"
          startIcon={<DownloadIcon />}
          aria-label="Download the composition"
          onClick={() =>
            downloadText(yaml, compositionFileName(fleetName, commit), 'application/yaml')
          }
        >
          Download
        </Button>
      </Stack>
      <Box
        component="pre"
        aria-label="Composition (docker-compose.yml)"
        sx={{ m: 0, p: 2, pt: 0, fontSize: 13, overflowX: 'auto', maxHeight: 400 }}
      >
        {yaml}
      </Box>
    </Paper>
  );
};
