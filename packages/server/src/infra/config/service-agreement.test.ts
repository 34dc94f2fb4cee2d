import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('loadConfig: FLOTILLA_SERVICE_AGREEMENT_URL', () => {
  it('is unset by default: no link', () => {
    expect(loadConfig({}).serviceAgreementUrl).toBeNull();
    expect(loadConfig({ FLOTILLA_SERVICE_AGREEMENT_URL: '' }).serviceAgreementUrl).toBeNull();
  });

  it('takes an http(s) address and refuses anything else', () => {
    const url = 'https://operator.example/terms#billing';
    expect(loadConfig({ FLOTILLA_SERVICE_AGREEMENT_URL: url }).serviceAgreementUrl).toBe(url);
    expect(() => loadConfig({ FLOTILLA_SERVICE_AGREEMENT_URL: 'javascript:alert(1)' })).toThrow(
      /FLOTILLA_SERVICE_AGREEMENT_URL/,
    );
  });
});
