// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SlugText, slugParts } from './SlugText.js';

afterEach(cleanup);

describe('SlugText', () => {
  it('splits a slug after each / and - only', () => {
    expect(slugParts('widths_mx2iikff5aqt/wide-tables')).toEqual([
      'widths_mx2iikff5aqt/',
      'wide-',
      'tables',
    ]);
    expect(slugParts('plain')).toEqual(['plain']);
    expect(slugParts('a//b-')).toEqual(['a/', '/', 'b-']);
  });

  it('offers line breaks at those places, never anywhere, with the whole slug as its title', () => {
    const { container } = render(<SlugText slug="acme_industries/garden-sensors" />);
    const text = screen.getByTitle('acme_industries/garden-sensors');
    expect(text.textContent).toBe('acme_industries/garden-sensors');
    expect(container.querySelectorAll('wbr')).toHaveLength(3);
    expect(getComputedStyle(text).overflowWrap).not.toBe('anywhere');
    expect(getComputedStyle(text).wordBreak).not.toBe('break-all');
  });
});
