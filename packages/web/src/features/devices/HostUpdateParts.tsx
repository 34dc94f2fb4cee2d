import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export type PickerOption = {
  key: string;
  label: string;
  // Beside the label (the OS line badges).
  adornment?: ReactNode;
  disabledReason: string | null;
};

// The version picker of the OS and supervisor update dialogs: newest first, a version the
// device already runs listed but disabled, with why.
export const VersionSelect = ({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: readonly PickerOption[];
  value: string;
  onChange: (key: string) => void;
}) => (
  <TextField
    select
    fullWidth
    size="small"
    label={label}
    value={value}
    onChange={(event) => onChange(event.target.value)}
  >
    {options.map((option) => (
      <MenuItem key={option.key} value={option.key} disabled={option.disabledReason !== null}>
        <ListItemText
          primary={
            <>
              {option.label}
              {option.adornment}
            </>
          }
          secondary={option.disabledReason}
        />
      </MenuItem>
    ))}
  </TextField>
);

export type EligibilityRow = {
  id: number;
  name: string;
  current: string;
  // Will the device be updated, and what to know about it (why not, or a warning).
  updates: boolean;
  // Offline: the update waits in its queue until it comes online.
  queued: boolean;
  message: string | null;
};

const statusOf = (row: EligibilityRow): string => {
  if (!row.updates) return 'Skipped';
  return row.queued ? 'Queued until online' : 'Will be updated';
};

// Each selected device, what it runs, and whether the chosen version updates it (and why not).
export const EligibilityTable = ({
  rows,
  currentLabel,
}: {
  rows: readonly EligibilityRow[];
  currentLabel: string;
}) => (
  <TableContainer sx={{ maxHeight: 300 }}>
    <Table size="small" stickyHeader aria-label="Devices and their eligibility">
      <TableHead>
        <TableRow>
          <TableCell>Device</TableCell>
          <TableCell sx={{ whiteSpace: 'nowrap' }}>{currentLabel}</TableCell>
          <TableCell>Status</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.id}>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{row.name}</TableCell>
            <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
              {row.current}
            </TableCell>
            <TableCell>
              <Typography variant="body2" color={row.updates ? 'success.main' : 'text.secondary'}>
                {statusOf(row)}
              </Typography>
              {row.message ? (
                <Typography variant="caption" color="text.secondary">
                  {row.message}
                </Typography>
              ) : null}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  </TableContainer>
);
