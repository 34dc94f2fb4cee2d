import { errorText } from '@flotilla/sdk/errors';
import type { OAuthApplication } from '@flotilla/shared/auth/oauth';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useDeleteApplication } from './api.js';

export const DeleteDialog = ({
  application,
  onClose,
}: {
  application: OAuthApplication;
  onClose: () => void;
}) => {
  const remove = useDeleteApplication(application, onClose);
  return (
    <Dialog open onClose={onClose}>
      <DialogTitle>Delete {application.name}?</DialogTitle>
      <DialogContent>
        <Typography>
          Its codes stop working; tokens it already received stay valid until they expire.
        </Typography>
        {remove.isError ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorText(remove.error) ?? 'Could not delete'}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button color="error" disabled={remove.isPending} onClick={() => remove.mutate()}>
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  );
};
