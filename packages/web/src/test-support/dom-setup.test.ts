// @vitest-environment jsdom
import { getConfig } from '@testing-library/react';
import { expect, it } from 'vitest';

// dom-setup.ts is not imported here: the unit project's setupFiles must have run it.
it('gives the jsdom test files waits that hold on a busy machine', () => {
  expect(getConfig().asyncUtilTimeout).toBe(15_000);
});
