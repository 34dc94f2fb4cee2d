import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';

// A frozen device (more devices provisioned than the plan allows) cannot be opened: clicking it
// explains why instead.
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
          {deviceName} is frozen: the organization has provisioned more devices than the free
          allowance. Frozen devices cannot be managed until the plan is upgraded or other devices
          are removed.
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
