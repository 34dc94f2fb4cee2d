// US sales tax: added to the invoices of customers whose billing address is in the United States,
// at the rate the operator set for the address's state (or its rate for every state, `*`). Rates
// depend on where the operator must collect, so none is built in.

export type SalesTaxRates = Readonly<Record<string, number>>;

export type SalesTax = { state: string; ratePercent: number; taxCents: number };

export const anyState = '*';

const stateNames: Record<string, string> = {
  ALABAMA: 'AL',
  ALASKA: 'AK',
  ARIZONA: 'AZ',
  ARKANSAS: 'AR',
  CALIFORNIA: 'CA',
  COLORADO: 'CO',
  CONNECTICUT: 'CT',
  DELAWARE: 'DE',
  'DISTRICT OF COLUMBIA': 'DC',
  FLORIDA: 'FL',
  GEORGIA: 'GA',
  HAWAII: 'HI',
  IDAHO: 'ID',
  ILLINOIS: 'IL',
  INDIANA: 'IN',
  IOWA: 'IA',
  KANSAS: 'KS',
  KENTUCKY: 'KY',
  LOUISIANA: 'LA',
  MAINE: 'ME',
  MARYLAND: 'MD',
  MASSACHUSETTS: 'MA',
  MICHIGAN: 'MI',
  MINNESOTA: 'MN',
  MISSISSIPPI: 'MS',
  MISSOURI: 'MO',
  MONTANA: 'MT',
  NEBRASKA: 'NE',
  NEVADA: 'NV',
  'NEW HAMPSHIRE': 'NH',
  'NEW JERSEY': 'NJ',
  'NEW MEXICO': 'NM',
  'NEW YORK': 'NY',
  'NORTH CAROLINA': 'NC',
  'NORTH DAKOTA': 'ND',
  OHIO: 'OH',
  OKLAHOMA: 'OK',
  OREGON: 'OR',
  PENNSYLVANIA: 'PA',
  'RHODE ISLAND': 'RI',
  'SOUTH CAROLINA': 'SC',
  'SOUTH DAKOTA': 'SD',
  TENNESSEE: 'TN',
  TEXAS: 'TX',
  UTAH: 'UT',
  VERMONT: 'VT',
  VIRGINIA: 'VA',
  WASHINGTON: 'WA',
  'WEST VIRGINIA': 'WV',
  WISCONSIN: 'WI',
  WYOMING: 'WY',
};

export const usStateCodes: readonly string[] = Object.values(stateNames);

// The two-letter code of a state as customers type it ("CA", "ca", "California"), or undefined.
export const usStateCode = (state: string | undefined): string | undefined => {
  const typed = (state ?? '').trim().replace(/\.$/, '').replace(/\s+/g, ' ').toUpperCase();
  if (usStateCodes.includes(typed)) return typed;
  return stateNames[typed];
};

export const isUsAddress = (country: string | undefined): boolean => {
  const typed = (country ?? '').trim().toUpperCase();
  return typed === 'US' || typed === 'USA';
};

// A rate is a percentage with at most three decimals, from 0 to 100 (7.25, 8.875).
export const isValidRate = (rate: number): boolean =>
  Number.isFinite(rate) &&
  rate >= 0 &&
  rate <= 100 &&
  Math.abs(rate * 1000 - Math.round(rate * 1000)) < 1e-6;

// The sales tax on `taxableCents` for a billing address: undefined outside the US, without a rate
// for its state, or when there is nothing to tax. Rounded to the nearest cent.
export const salesTaxOf = (
  address: { country?: string | undefined; state?: string | undefined },
  rates: SalesTaxRates,
  taxableCents: number,
): SalesTax | undefined => {
  if (!isUsAddress(address.country) || taxableCents <= 0) return undefined;
  const state = usStateCode(address.state);
  const ratePercent = (state === undefined ? undefined : rates[state]) ?? rates[anyState];
  if (ratePercent === undefined || ratePercent <= 0) return undefined;
  // In thousandths of a percent, so that 8.875 % multiplies exactly.
  const taxCents = Math.round((taxableCents * Math.round(ratePercent * 1000)) / 100_000);
  return { state: state ?? anyState, ratePercent, taxCents };
};

export const salesTaxDescription = (tax: SalesTax): string =>
  `Sales tax (${tax.state === anyState ? 'US' : tax.state}, ${tax.ratePercent}%)`;
