import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';

// A frozen device (more devices provisioned than the plan allows, or an organization frozen for
// an invoice long past due) cannot be opened: clicking it explains why instead.
export const FrozenDeviceDialog = ({
  deviceName,
  onClose,
}: {
  deviceName: string | null;
  onClose: () => void;
}) => {
  const titleId = useId();
  return (
    <Dialog open={deviceName !== null} onClose={onClose} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>Frozen device</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {deviceName} is frozen: either the organization has provisioned more devices than the free
          allowance, or it has an invoice over 60 days past due. Frozen devices cannot be managed,
          and get no new releases, until the plan is upgraded, other devices are removed or the
          invoice is paid.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
};
