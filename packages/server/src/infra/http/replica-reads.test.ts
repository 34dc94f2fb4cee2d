import { describe, expect, it } from 'vitest';
import { lsnValue } from '../db/read-routing.js';
import { readerOf } from './replica-reads.js';

describe('which reads may use the read replica', () => {
  it('routes signed-in people only, never devices, fleet keys or anonymous callers', () => {
    const person = {
      kind: 'user',
      userId: 7,
      actorId: 70,
      platformPermissions: [],
      via: 'session',
      twoFactorPending: false,
      emailVerificationPending: false,
    } as const;
    expect(readerOf(person)).toBe('user:7');
    expect(readerOf({ kind: 'device', deviceId: 1, actorId: 2, applicationId: 3 })).toBeUndefined();
    expect(readerOf({ kind: 'application', applicationId: 3, actorId: 4 })).toBeUndefined();
    expect(readerOf({ kind: 'anonymous' })).toBeUndefined();
  });

  it('orders WAL positions across their two halves', () => {
    expect(lsnValue('0/16B3748')).toBe(0x16b3748n);
    expect(lsnValue('1/0') > lsnValue('0/FFFFFFFF')).toBe(true);
    expect(() => lsnValue('nonsense')).toThrow('Not a WAL position');
  });
});
