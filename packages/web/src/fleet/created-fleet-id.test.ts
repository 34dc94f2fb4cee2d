import { describe, expect, it } from 'vitest';
import { couldNotFindIdMessage, createdFleetId } from './created-fleet-id.js';

describe('createdFleetId', () => {
  it('answers the id of the created fleet', () => {
    expect(createdFleetId({ id: 42, app_name: 'garden' })).toBe(42);
  });

  it('says "could not find id" when the answer has none', () => {
    for (const answer of [{}, { id: null }, { id: '42' }, { id: 0 }, null, 'OK', undefined]) {
      expect(() => createdFleetId(answer)).toThrow(couldNotFindIdMessage);
    }
  });
});
