import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { DisabledReason } from '../DisabledReason.js';

// Above a list with checkboxes: how many rows are picked and the action on all of them.
export const SelectionBar = ({
  count,
  hint,
  noneReason,
  actionLabel,
  busy,
  onAction,
}: {
  count: number;
  // Shown while nothing is picked.
  hint: string;
  // Why the action is disabled while nothing is picked.
  noneReason: string;
  actionLabel: string;
  busy: boolean;
  onAction: () => void;
}) => (
  <Stack direction="row" spacing={1} sx={{ p: 1.5, alignItems: 'center' }}>
    <Typography variant="body2" color="text.secondary" sx={{ flexGrow: 1 }}>
      {count === 0 ? hint : `${count} selected`}
    </Typography>
    <DisabledReason reason={count === 0 ? noneReason : null}>
      <Button size="small" color="error" disabled={count === 0 || busy} onClick={onAction}>
        {actionLabel}
      </Button>
    </DisabledReason>
  </Stack>
);
