// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MarkdownText, parseBlocks } from './MarkdownText.js';

afterEach(cleanup);

describe('MarkdownText', () => {
  it('parses headings, lists, code and paragraphs', () => {
    expect(parseBlocks('# Title\n\n- a\n- b\n\n1. one\n\n```\nx\n```\nline one\nline two')).toEqual(
      [
        { kind: 'heading', level: 1, text: 'Title' },
        { kind: 'list', ordered: false, items: ['a', 'b'] },
        { kind: 'list', ordered: true, items: ['one'] },
        { kind: 'code', text: 'x' },
        { kind: 'paragraph', lines: ['line one', 'line two'] },
      ],
    );
  });

  it('renders inline markup and only safe links', () => {
    render(
      <MarkdownText
        source={'**bold** `code` [docs](https://example.com) [bad](javascript:alert(1))'}
      />,
    );
    expect(screen.getByText('bold').tagName).toBe('STRONG');
    expect(screen.getByText('code').tagName).toBe('CODE');
    expect(screen.getByRole('link', { name: 'docs' }).getAttribute('href')).toBe(
      'https://example.com',
    );
    expect(screen.queryByRole('link', { name: 'bad' })).toBeNull();
  });

  it('never turns note text into HTML', () => {
    const { container } = render(<MarkdownText source={'<img src=x onerror=alert(1)>'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeTruthy();
  });
});
