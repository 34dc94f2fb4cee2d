import { describe, expect, it } from 'vitest';
import { checkTaxId } from './tax-id.js';
import { taxIdTypes } from './tax-id-types.js';

describe('checkTaxId', () => {
  it('accepts the documented example of every type', () => {
    for (const known of taxIdTypes) {
      expect(
        checkTaxId({ type: known.type, value: known.example, country: known.country }),
        `${known.type} ${known.country}`,
      ).toMatchObject({ ok: true });
    }
  });

  it('normalises spaces and case, and finds the country of the value', () => {
    expect(checkTaxId({ type: 'eu_vat', value: 'de 123 456 789' })).toEqual({
      ok: true,
      taxId: { type: 'eu_vat', value: 'DE123456789', country: 'DE' },
    });
  });

  it('refuses a value of another format, another country or an unknown type', () => {
    expect(checkTaxId({ type: 'eu_vat', value: 'DE12345' })).toEqual({
      ok: false,
      message: 'Invalid tax id',
    });
    expect(checkTaxId({ type: 'eu_vat', value: 'DE123456789', country: 'FR' }).ok).toBe(false);
    expect(checkTaxId({ type: 'us_ein', value: '123456789' }).ok).toBe(false);
    expect(checkTaxId({ type: 'xx_none', value: '1' }).ok).toBe(false);
  });
});
