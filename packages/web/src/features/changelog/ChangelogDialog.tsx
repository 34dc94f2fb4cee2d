import { dashboardVersion } from '@flotilla/shared/constants/limits';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { MarkdownText } from '../../ui/MarkdownText.js';
import { useChangelog } from './api.js';

// This product's CHANGELOG.md (served by the API at /CHANGELOG.md, public).
// Its title says which version runs, and which dashboard behaviour that version implements.
export const ChangelogDialog = ({ version, onClose }: { version: string; onClose: () => void }) => {
  const changelog = useChangelog();
  let content;
  if (changelog.isPending) {
    content = (
      <Box
        role="status"
        aria-label="Loading the changelog"
        sx={{ display: 'grid', placeItems: 'center', minHeight: 160 }}
      >
        <CircularProgress />
      </Box>
    );
  } else if (changelog.isError) {
    content = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void changelog.refetch()}>
            Retry
          </Button>
        }
      >
        Could not load the changelog
      </Alert>
    );
  } else {
    content = <MarkdownText source={changelog.data} />;
  }
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="changelog-title">
      <DialogTitle id="changelog-title">Changelog</DialogTitle>
      <Typography color="text.secondary" variant="body2" sx={{ px: 3, pb: 1 }}>
        Flotilla {version} · implements dashboard {dashboardVersion}
      </Typography>
      <DialogContent dividers>{content}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
};
