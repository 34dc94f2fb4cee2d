import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { StagedMark, stagedRowSx } from './StagedMark.js';
import type { VariableRow } from './variable-rows.js';

// Long values (certificates, data URLs) are cut in the table; the edit dialog holds all of it.
const shownLength = 160;

// A missing value reads "Not set" (a bare dash says nothing to someone new).
export const ValueText = ({ value, muted = false }: { value: string | null; muted?: boolean }) =>
  value === null ? (
    <Typography variant="body2" color="text.disabled">
      Not set
    </Typography>
  ) : (
    <Typography
      variant="body2"
      className="staged-value"
      color={muted ? 'text.secondary' : 'text.primary'}
      title={value.length > shownLength ? `${value.length} characters` : undefined}
      sx={{ fontFamily: 'monospace', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
    >
      {value.length > shownLength ? `${value.slice(0, shownLength)}…` : value}
    </Typography>
  );

export type VariablesTableProps = {
  label: string;
  rows: readonly VariableRow[];
  // The service column, when the table holds service variables.
  serviceName?: (serviceId: number) => string;
  // The column of the value a device inherits from its fleet (device pages).
  inheritedLabel?: string;
  valueLabel?: string;
  empty: string;
  actions: (row: VariableRow) => ReactNode;
  onUndo: (row: VariableRow) => void;
};

// How a row is named in its buttons: "GREETING", or "GREETING of main" for a service's.
export const rowLabel =
  (serviceName?: (serviceId: number) => string) =>
  (row: Pick<VariableRow, 'name' | 'serviceId'>): string =>
    serviceName && row.serviceId !== 0 ? `${row.name} of ${serviceName(row.serviceId)}` : row.name;

// The table of one page's variables, staged edits highlighted and each undoable.
export const VariablesTable = ({
  label,
  rows,
  serviceName,
  inheritedLabel,
  valueLabel = 'Value',
  empty,
  actions,
  onUndo,
}: VariablesTableProps) => (
  <TableContainer component={Paper} variant="outlined">
    <Table size="small" aria-label={label}>
      <TableHead>
        <TableRow>
          <TableCell>Name</TableCell>
          {serviceName ? <TableCell>Service</TableCell> : null}
          {inheritedLabel ? <TableCell>{inheritedLabel}</TableCell> : null}
          <TableCell>{valueLabel}</TableCell>
          <TableCell align="right" aria-label="Actions" />
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.length === 0 ? (
          <TableRow>
            <TableCell colSpan={5}>
              <Typography color="text.secondary" sx={{ py: 2, textAlign: 'center' }}>
                {empty}
              </Typography>
            </TableCell>
          </TableRow>
        ) : null}
        {rows.map((row) => (
          <TableRow key={row.key} sx={stagedRowSx(row.staged)} data-staged={row.staged}>
            <TableCell sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere', maxWidth: 280 }}>
              {row.name}
            </TableCell>
            {serviceName ? <TableCell>{serviceName(row.serviceId)}</TableCell> : null}
            {inheritedLabel ? (
              <TableCell sx={{ maxWidth: 320 }}>
                <ValueText value={row.inherited} muted />
              </TableCell>
            ) : null}
            <TableCell sx={{ maxWidth: 360 }}>
              <ValueText value={row.value} />
            </TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              <Stack
                direction="row"
                spacing={0.5}
                sx={{ justifyContent: 'flex-end', alignItems: 'center' }}
              >
                <StagedMark
                  kind={row.staged}
                  name={rowLabel(serviceName)(row)}
                  onUndo={() => onUndo(row)}
                />
                {actions(row)}
              </Stack>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  </TableContainer>
);
