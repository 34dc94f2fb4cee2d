// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import {
  headerBackground,
  headerColorValues,
  readHeaderColor,
  readNavigationStripes,
  setHeaderColor,
  setNavigationStripes,
} from './local-preferences.js';

afterEach(() => window.localStorage.clear());

describe('the experimental local preferences', () => {
  it('default to the theme header and no stripes', () => {
    expect(readHeaderColor()).toBe('default');
    expect(readNavigationStripes()).toBe(false);
  });

  it('stripe a tagged installation unless the user turned the stripes off', () => {
    expect(readNavigationStripes(true)).toBe(true);
    setNavigationStripes(false);
    expect(readNavigationStripes(true)).toBe(false);
  });

  it('keep what was chosen, in local storage', () => {
    expect(setHeaderColor('teal')).toBe(true);
    expect(setNavigationStripes(true)).toBe(true);
    expect(readHeaderColor()).toBe('teal');
    expect(readNavigationStripes()).toBe(true);
    expect(window.localStorage.getItem('flotilla.experimental.headerColor')).toBe('teal');
  });

  it('ignore a stored colour they do not know', () => {
    window.localStorage.setItem('flotilla.experimental.headerColor', 'url(javascript:x)');
    expect(readHeaderColor()).toBe('default');
  });

  it('make the header red for platform administrators unless they chose a colour', () => {
    expect(headerBackground('default', true)).toBe(headerColorValues.red);
    expect(headerBackground('default', false)).toBeUndefined();
    expect(headerBackground('green', true)).toBe(headerColorValues.green);
    expect(headerBackground('purple', false)).toBe(headerColorValues.purple);
  });
});
