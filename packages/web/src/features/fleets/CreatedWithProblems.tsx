import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';

// After a create whose fleet exists but whose variables or first release did not all happen.
export const CreatedWithProblems = ({
  label,
  problems,
  onOpen,
}: {
  label: string;
  problems: readonly string[];
  onOpen: () => void;
}) => (
  <Dialog open onClose={onOpen} fullWidth maxWidth="sm" aria-labelledby="created-title">
    <DialogTitle id="created-title">The {label} was created</DialogTitle>
    <DialogContent>
      <Alert severity="warning">
        Not everything was set up:
        <ul>
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      </Alert>
    </DialogContent>
    <DialogActions>
      <Button variant="contained" onClick={onOpen}>
        Open the {label}
      </Button>
    </DialogActions>
  </Dialog>
);
