import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { ListToolbar } from '../../ui/entity-list/ListToolbar.js';

// The head of a fleet's members and teams pages: the title, the add button (disabled with the
// reason when the user may not add) and the last failed write's message.
export const FleetAccessHeader = ({
  title,
  addLabel,
  addIcon,
  addDenied,
  onAdd,
  writeError,
}: {
  title: string;
  addLabel: string;
  addIcon: ReactNode;
  addDenied: string | null;
  onAdd: () => void;
  // The failed write, or null when the last one did not fail.
  writeError: unknown;
}) => (
  <>
    <ListToolbar
      actions={
        <DisabledReason reason={addDenied}>
          <Button
            variant="contained"
            startIcon={addIcon}
            disabled={addDenied !== null}
            onClick={onAdd}
          >
            {addLabel}
          </Button>
        </DisabledReason>
      }
    >
      <Typography variant="h2">{title}</Typography>
    </ListToolbar>
    {writeError !== null ? (
      <Alert severity="error">{errorText(writeError) ?? 'Could not save'}</Alert>
    ) : null}
  </>
);
