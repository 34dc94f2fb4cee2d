import { errorText } from '@flotilla/sdk/errors';
import { anyState, type SalesTaxRates, usStateCodes } from '@flotilla/shared/billing/sales-tax';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useToasts } from '../../ui/toasts.js';
import { useSaveSalesTaxRates } from './api-admin.js';
import {
  nextState,
  rateProblem,
  ratesOf,
  type RateRow,
  rowsOf,
  stateLabel,
} from './sales-tax-rows.js';

// The rates of every state, edited together and saved at once (the server replaces them all).
export const SalesTaxRatesEditor = ({ saved }: { saved: SalesTaxRates }) => {
  const [rows, setRows] = useState<RateRow[]>(() => rowsOf(saved));
  const [nextKey, setNextKey] = useState(rows.length);
  const save = useSaveSalesTaxRates();
  const toasts = useToasts();
  const rates = ratesOf(rows);
  const update = (key: number, change: Partial<RateRow>) =>
    setRows((current) => current.map((row) => (row.key === key ? { ...row, ...change } : row)));
  const added = nextState(rows);
  const add = () => {
    if (added === undefined) return;
    setRows((current) => [...current, { key: nextKey, state: added, rate: '' }]);
    setNextKey(nextKey + 1);
  };
  const submit = () => {
    if (rates === null) return;
    save.mutate(rates, {
      onSuccess: (answer) => {
        setRows(rowsOf(answer.rates));
        toasts.show('success', 'Sales tax rates saved');
      },
    });
  };
  return (
    <Stack spacing={2}>
      {rows.length === 0 ? (
        <Typography color="text.secondary">
          No rate is set: invoices to US addresses carry no sales tax.
        </Typography>
      ) : (
        <Paper variant="outlined">
          <Table size="small" aria-label="Sales tax rates">
            <TableHead>
              <TableRow>
                <TableCell>State</TableCell>
                <TableCell>Rate (%)</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => {
                const problem = rateProblem(row.rate);
                const choices = [...usStateCodes, anyState].filter(
                  (state) => state === row.state || !rows.some((other) => other.state === state),
                );
                return (
                  <TableRow key={row.key}>
                    <TableCell sx={{ width: 260, verticalAlign: 'top' }}>
                      <TextField
                        select
                        size="small"
                        fullWidth
                        label="State"
                        value={row.state}
                        onChange={(event) => update(row.key, { state: event.target.value })}
                      >
                        {choices.map((state) => (
                          <MenuItem key={state} value={state}>
                            {stateLabel(state)}
                          </MenuItem>
                        ))}
                      </TextField>
                    </TableCell>
                    <TableCell sx={{ verticalAlign: 'top' }}>
                      <TextField
                        size="small"
                        sx={{ width: 320 }}
                        label={`Rate for ${row.state}`}
                        value={row.rate}
                        inputMode="decimal"
                        error={problem !== null}
                        helperText={problem ?? ' '}
                        onChange={(event) => update(row.key, { rate: event.target.value })}
                      />
                    </TableCell>
                    <TableCell align="right" sx={{ verticalAlign: 'top', pt: 2.25 }}>
                      <Button
                        size="small"
                        aria-label={`Remove ${row.state}`}
                        onClick={() =>
                          setRows((current) => current.filter((other) => other.key !== row.key))
                        }
                      >
                        Remove
                      </Button>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Paper>
      )}
      {save.isError ? (
        <Alert severity="error">{errorText(save.error) ?? 'Could not save the rates'}</Alert>
      ) : null}
      <Stack direction="row" spacing={1}>
        <Button variant="outlined" onClick={add} disabled={added === undefined}>
          Add a state
        </Button>
        <Button variant="contained" onClick={submit} disabled={rates === null || save.isPending}>
          {save.isPending ? 'Saving…' : 'Save rates'}
        </Button>
      </Stack>
    </Stack>
  );
};
