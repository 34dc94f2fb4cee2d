import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { summarize } from './staged-edits.js';
import type { StagedEdits } from './useStagedEdits.js';

// The sticky bar under a table with staged edits: what is pending, revert all (after a
// confirmation) and apply all. Nothing shows while nothing is staged.
export const StagedChangesBar = <T,>({
  edits,
  label = 'Unsaved changes',
}: {
  edits: StagedEdits<T>;
  label?: string;
}) => {
  const [confirming, setConfirming] = useState(false);
  if (!edits.dirty) return null;
  const count = edits.changes.length;
  return (
    <Paper
      elevation={6}
      role="region"
      aria-label={label}
      sx={{
        position: 'sticky',
        bottom: 16,
        zIndex: (theme) => theme.zIndex.appBar - 1,
        mt: 2,
        px: 2,
        py: 1.5,
        borderLeft: 4,
        borderColor: 'warning.main',
      }}
    >
      <Stack
        direction="row"
        spacing={2}
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', rowGap: 1 }}
      >
        <Typography>
          {count === 1 ? '1 change' : `${count} changes`} not applied yet (
          {summarize(edits.changes)})
        </Typography>
        <Stack direction="row" spacing={1}>
          <Button onClick={() => setConfirming(true)} disabled={edits.applying}>
            Revert all
          </Button>
          <Button
            variant="contained"
            onClick={() => void edits.applyAll()}
            disabled={edits.applying}
          >
            {edits.applying ? 'Applying…' : 'Apply all'}
          </Button>
        </Stack>
      </Stack>
      <ConfirmDialog
        open={confirming}
        title="Revert all changes?"
        confirmLabel="Revert all"
        destructive
        onConfirm={() => {
          edits.revertAll();
          setConfirming(false);
        }}
        onClose={() => setConfirming(false)}
      >
        {`The ${count === 1 ? 'change' : `${count} changes`} not applied yet will be discarded.`}
      </ConfirmDialog>
    </Paper>
  );
};
