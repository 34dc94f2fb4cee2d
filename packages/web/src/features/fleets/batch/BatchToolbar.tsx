import DeleteOutlineOutlinedIcon from '@mui/icons-material/DeleteOutlineOutlined';
import DriveFileRenameOutlineIcon from '@mui/icons-material/DriveFileRenameOutline';
import MemoryIcon from '@mui/icons-material/Memory';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import type { ReactNode } from 'react';
import { DisabledReason } from '../../../ui/DisabledReason.js';
import type { FleetBatchAction } from '@flotilla/shared/fleets/fleet-action-permissions';
import type { BatchGates } from './batch-rules.js';

const ActionButton = ({
  reason,
  icon,
  color = 'primary',
  onClick,
  children,
}: {
  reason: string | null;
  icon: ReactNode;
  color?: 'primary' | 'error';
  onClick: () => void;
  children: ReactNode;
}) => (
  <DisabledReason reason={reason}>
    <Button
      size="small"
      color={color}
      startIcon={icon}
      disabled={reason !== null}
      onClick={onClick}
    >
      {children}
    </Button>
  </DisabledReason>
);

// The bar of selection mode: select all, the count and the batch actions, each disabled with
// its reason when the selection does not allow it. Sticks under the header while scrolling.
export const BatchToolbar = ({
  label,
  total,
  selectedCount,
  gates,
  onSelectAll,
  onClear,
  onAction,
  onDone,
}: {
  // "fleets", "apps" or "blocks".
  label: string;
  total: number;
  selectedCount: number;
  gates: BatchGates;
  onSelectAll: () => void;
  onClear: () => void;
  onAction: (action: FleetBatchAction) => void;
  onDone: () => void;
}) => {
  const all = total > 0 && selectedCount === total;
  return (
    <Paper
      variant="outlined"
      role="toolbar"
      aria-label={`Batch actions on ${label}`}
      sx={{
        position: 'sticky',
        top: { xs: 64, sm: 72 },
        zIndex: 2,
        mb: 2,
        px: 1.5,
        py: 0.75,
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        columnGap: 1,
        rowGap: 0.5,
        borderColor: selectedCount > 0 ? 'primary.main' : 'divider',
        bgcolor: (theme) =>
          selectedCount > 0
            ? alpha(theme.palette.primary.main, 0.07)
            : theme.palette.background.paper,
        backgroundImage: 'none',
      }}
    >
      <FormControlLabel
        sx={{ mr: 0 }}
        control={
          <Checkbox
            checked={all}
            indeterminate={selectedCount > 0 && !all}
            onChange={() => (all ? onClear() : onSelectAll())}
          />
        }
        label="Select all"
      />
      <Divider orientation="vertical" flexItem sx={{ mx: 0.5 }} />
      <Typography role="status" aria-live="polite" sx={{ fontWeight: 600, minWidth: 88 }}>
        {selectedCount} selected
      </Typography>
      <Stack direction="row" spacing={0.5} sx={{ ml: 'auto', flexWrap: 'wrap' }}>
        <ActionButton
          reason={gates.rename}
          icon={<DriveFileRenameOutlineIcon />}
          onClick={() => onAction('rename')}
        >
          Rename
        </ActionButton>
        <ActionButton
          reason={gates.deviceType}
          icon={<MemoryIcon />}
          onClick={() => onAction('deviceType')}
        >
          Change default device type
        </ActionButton>
        <ActionButton
          reason={gates.delete}
          icon={<DeleteOutlineOutlinedIcon />}
          color="error"
          onClick={() => onAction('delete')}
        >
          Delete
        </ActionButton>
        <Divider orientation="vertical" flexItem sx={{ mx: 0.5 }} />
        <Button size="small" variant="outlined" onClick={onDone}>
          Done
        </Button>
      </Stack>
    </Paper>
  );
};
