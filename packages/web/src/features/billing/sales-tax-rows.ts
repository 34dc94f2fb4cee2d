import {
  anyState,
  isValidRate,
  type SalesTaxRates,
  usStateCodes,
} from '@flotilla/shared/billing/sales-tax';

// The rates as the editor holds them: one row per state, the rate as typed.
export type RateRow = { key: number; state: string; rate: string };

export const stateLabel = (state: string): string =>
  state === anyState ? 'Every other state (*)' : state;

export const rowsOf = (rates: SalesTaxRates): RateRow[] =>
  Object.entries(rates)
    .sort(([a], [b]) => (a === anyState ? 1 : b === anyState ? -1 : a.localeCompare(b)))
    .map(([state, rate], key) => ({ key, state, rate: String(rate) }));

// The first state no row names yet (then `*`), for a new row; undefined when every one has one.
export const nextState = (rows: readonly RateRow[]): string | undefined =>
  [...usStateCodes, anyState].find((state) => !rows.some((row) => row.state === state));

// What is wrong with a row's rate, or null.
export const rateProblem = (rate: string): string | null => {
  if (rate.trim() === '') return 'Enter a rate';
  return isValidRate(Number(rate)) ? null : 'A percentage from 0 to 100, at most 3 decimals';
};

// The rates to save, or null while a row is invalid.
export const ratesOf = (rows: readonly RateRow[]): SalesTaxRates | null => {
  if (rows.some((row) => rateProblem(row.rate) !== null)) return null;
  return Object.fromEntries(rows.map((row) => [row.state, Number(row.rate)]));
};
