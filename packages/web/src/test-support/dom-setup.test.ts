// @vitest-environment jsdom
import { getConfig } from '@testing-library/react';
import { expect, it } from 'vitest';
// The screens' tests import the fake API: it must not shorten the waits again.
import './fake-api.js';

// dom-setup.ts is not imported here: the unit project's setupFiles must have run it.
it('gives the jsdom test files waits that hold on a busy machine', () => {
  expect(getConfig().asyncUtilTimeout).toBe(15_000);
});
