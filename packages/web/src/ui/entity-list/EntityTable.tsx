import Checkbox from '@mui/material/Checkbox';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell, { type TableCellProps } from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

// One column of a list: its header and what each row shows in it.
export type EntityColumn<Row> = {
  key: string;
  header?: ReactNode;
  headerProps?: TableCellProps;
  cell: (row: Row) => ReactNode;
  cellProps?: TableCellProps;
};

// Rows picked with a checkbox each (and one for the whole page), for actions on several at once.
export type EntitySelection<Row> = {
  selected: readonly number[];
  onChange: (ids: readonly number[]) => void;
  rowLabel: (row: Row) => string;
  allLabel: string;
};

// The right-hand cell of each row with its buttons. `header` is the column's visible title; without
// one the column is named for screen readers only ("Actions").
export type EntityRowActions<Row> = {
  header?: ReactNode;
  cell: (row: Row) => ReactNode;
  cellProps?: TableCellProps;
};

export type EntityTableProps<Row extends { id: number }> = {
  label: string;
  rows: readonly Row[];
  columns: readonly EntityColumn<Row>[];
  // Shown in one full-width row when there are no rows; nothing when undefined.
  emptyText?: ReactNode;
  size?: 'small' | 'medium';
  hover?: boolean;
  // `paper`: an outlined paper around toolbar, table and footer; `container`: an outlined table
  // container (scrolls sideways); `none`: the bare table.
  frame?: 'paper' | 'container' | 'none';
  selection?: EntitySelection<Row>;
  rowActions?: EntityRowActions<Row>;
  // Above the table inside the frame (a selection bar), and below it (pagination).
  toolbar?: ReactNode;
  footer?: ReactNode;
};

const SelectAll = <Row extends { id: number }>({
  rows,
  selection,
}: {
  rows: readonly Row[];
  selection: EntitySelection<Row>;
}) => {
  const chosen = rows.filter((row) => selection.selected.includes(row.id));
  const allChosen = rows.length > 0 && chosen.length === rows.length;
  return (
    <TableCell padding="checkbox">
      <Checkbox
        checked={allChosen}
        indeterminate={chosen.length > 0 && !allChosen}
        onChange={() => selection.onChange(allChosen ? [] : rows.map((row) => row.id))}
        slotProps={{ input: { 'aria-label': selection.allLabel } }}
      />
    </TableCell>
  );
};

const SelectRow = <Row extends { id: number }>({
  row,
  selection,
}: {
  row: Row;
  selection: EntitySelection<Row>;
}) => {
  const { selected } = selection;
  return (
    <TableCell padding="checkbox">
      <Checkbox
        checked={selected.includes(row.id)}
        onChange={() =>
          selection.onChange(
            selected.includes(row.id)
              ? selected.filter((id) => id !== row.id)
              : [...selected, row.id],
          )
        }
        slotProps={{ input: { 'aria-label': selection.rowLabel(row) } }}
      />
    </TableCell>
  );
};

// The console's list of members, teams or keys: a table of columns, one row per entity with its
// actions at the right, an empty text, an optional selection, toolbar and footer. Load states
// stay with the screens (some wait for the whole tab, some show the frame first).
export const EntityTable = <Row extends { id: number }>({
  label,
  rows,
  columns,
  emptyText,
  size,
  hover = false,
  frame = 'none',
  selection,
  rowActions,
  toolbar,
  footer,
}: EntityTableProps<Row>) => {
  const span = columns.length + (selection ? 1 : 0) + (rowActions ? 1 : 0);
  const table = (
    <Table {...(size ? { size } : {})} aria-label={label}>
      <TableHead>
        <TableRow>
          {selection ? <SelectAll rows={rows} selection={selection} /> : null}
          {columns.map((column) => (
            <TableCell key={column.key} {...column.headerProps}>
              {column.header}
            </TableCell>
          ))}
          {rowActions ? (
            rowActions.header === undefined ? (
              <TableCell align="right" aria-label="Actions" />
            ) : (
              <TableCell align="right">{rowActions.header}</TableCell>
            )
          ) : null}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.length === 0 && emptyText !== undefined ? (
          <TableRow>
            <TableCell colSpan={span}>
              <Typography color="text.secondary" sx={{ py: 2, textAlign: 'center' }}>
                {emptyText}
              </Typography>
            </TableCell>
          </TableRow>
        ) : null}
        {rows.map((row) => (
          <TableRow key={row.id} hover={hover}>
            {selection ? <SelectRow row={row} selection={selection} /> : null}
            {columns.map((column) => (
              <TableCell key={column.key} {...column.cellProps}>
                {column.cell(row)}
              </TableCell>
            ))}
            {rowActions ? (
              <TableCell align="right" {...rowActions.cellProps}>
                {rowActions.cell(row)}
              </TableCell>
            ) : null}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
  if (frame === 'container') {
    return (
      <TableContainer component={Paper} variant="outlined">
        {toolbar}
        {table}
        {footer}
      </TableContainer>
    );
  }
  if (frame === 'paper') {
    return (
      <Paper variant="outlined">
        {toolbar}
        {table}
        {footer}
      </Paper>
    );
  }
  return (
    <>
      {toolbar}
      {table}
      {footer}
    </>
  );
};
