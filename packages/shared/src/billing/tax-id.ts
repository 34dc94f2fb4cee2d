import { taxIdTypes } from './tax-id-types.js';

export type TaxId = { type: string; value: string; country?: string | undefined };

export const invalidTaxIdMessage = 'Invalid tax id';

// Normalises a tax id for its type: spaces removed and letters upper-cased, except for types
// whose documented format holds spaces.
const normalise = (type: string, value: string): string =>
  type === 'ch_vat' ? value.trim().toUpperCase() : value.replace(/\s+/g, '').toUpperCase();

export type TaxIdCheck = { ok: true; taxId: TaxId } | { ok: false; message: string };

// A tax id's value must match the pattern of its type for its country (any country the type is
// used in when none is given).
export const checkTaxId = (taxId: TaxId): TaxIdCheck => {
  const value = normalise(taxId.type, taxId.value);
  const country = taxId.country?.trim().toUpperCase();
  const match = taxIdTypes.find(
    (known) =>
      known.type === taxId.type &&
      (country === undefined || country === '' || known.country === country) &&
      known.pattern.test(value),
  );
  if (!match) return { ok: false, message: invalidTaxIdMessage };
  return { ok: true, taxId: { type: match.type, value, country: match.country } };
};

export const isKnownTaxIdType = (type: string): boolean =>
  taxIdTypes.some((known) => known.type === type);
