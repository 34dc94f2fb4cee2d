import { describe, expect, it } from 'vitest';
import { auditActionLabel } from './audit-entry.js';

describe('auditActionLabel', () => {
  it('names each kind of record, and shows an unknown one as stored', () => {
    expect(auditActionLabel('update')).toBe('Updated');
    expect(auditActionLabel('api_key_created')).toBe('API key created');
    expect(auditActionLabel('device_action')).toBe('Device action');
    expect(auditActionLabel('toString')).toBe('toString');
    expect(auditActionLabel('future_kind')).toBe('future_kind');
  });
});
