// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import type { FakeRow } from '../../test-support/fake-odata.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import { type ReleaseChoice, ReleasePicker } from './ReleasePicker.js';
import { releasePickerPopupMaxHeight, releasePickerRefreshMs } from './release-limits.js';
import { releaseRow } from '../../test-support/release-fixtures.js';

// The release picker on the strict fake API: what it asks the server (search, pages, order),
// what it offers, and its loading, empty and error states.

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

// Release n of fleet 12, created n minutes after the first: the higher the id, the newer.
const release = (id: number, overrides: Record<string, unknown> = {}): FakeRow =>
  releaseRow(id, {
    created_at: new Date(Date.UTC(2025, 0, 1, 10, id)).toISOString(),
    raw_version: `3.0.${id}`,
    semver: `3.0.${id}`,
    ...overrides,
  });

const Harness = ({ onChange }: { onChange: (choice: ReleaseChoice | null) => void }) => {
  const [value, setValue] = useState<ReleaseChoice | null>(null);
  return (
    <ReleasePicker
      fleetId={12}
      label="Release"
      track={{
        label: 'Track the fleet release',
        detail: '',
        inputLabel: 'Track the fleet release',
      }}
      value={value}
      onChange={(choice) => {
        setValue(choice);
        onChange(choice);
      }}
    />
  );
};

const setup = (releases: FakeRow[], user = userEvent.setup()) => {
  const api = createFakeApi({ release: releases });
  const chosen: (ReleaseChoice | null)[] = [];
  renderWithClient(api.client, <Harness onChange={(choice) => chosen.push(choice)} />);
  const reads = () =>
    api.reads
      .filter((url) => url.pathname === '/v7/release')
      .map((url) => ({
        filter: url.searchParams.get('$filter'),
        skip: url.searchParams.get('$skip'),
        top: url.searchParams.get('$top'),
        orderby: url.searchParams.get('$orderby'),
      }));
  return { api, user, chosen, reads };
};

const combobox = () => screen.getByRole('combobox', { name: 'Release' });

const optionNames = () => screen.getAllByRole('option').map((option) => option.textContent);

describe('release picker', { timeout: 30_000 }, () => {
  it('reads nothing until opened, then offers the newest 50 and loads more on demand', async () => {
    const many = Array.from({ length: 60 }, (_, index) => release(index + 1));
    const { user, reads } = setup([...many, release(99, { status: 'failed' })]);
    expect(reads()).toEqual([]);
    await user.click(combobox());
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(51));
    expect(reads()).toEqual([
      {
        filter: "belongs_to__application eq 12 and status eq 'success' and is_final eq true",
        skip: '0',
        top: '50',
        orderby: 'created_at desc,id desc',
      },
    ]);
    // The track choice first, then newest first.
    expect(optionNames().slice(0, 3)).toEqual([
      'Track the fleet release',
      expect.stringMatching(/^3\.0\.60/),
      expect.stringMatching(/^3\.0\.59/),
    ]);
    await user.click(screen.getByRole('button', { name: 'Load more releases' }));
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(61));
    expect(reads().map((read) => read.skip)).toEqual(['0', '50']);
    expect(optionNames().at(-1)).toMatch(/^3\.0\.1/);
    // The second page was not full: nothing more to load.
    expect(screen.queryByRole('button', { name: 'Load more releases' })).toBeNull();
  });

  it('caps the popup at 300 px, the list scrolling inside it above "Load more"', async () => {
    const { user } = setup(Array.from({ length: 60 }, (_, index) => release(index + 1)));
    await user.click(combobox());
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(51));
    const listbox = screen.getByRole('listbox');
    const popup = listbox.parentElement;
    expect(popup).not.toBeNull();
    expect(releasePickerPopupMaxHeight).toBe(300);
    expect(getComputedStyle(popup ?? listbox).maxHeight).toBe('300px');
    expect(getComputedStyle(listbox).maxHeight).toBe('none');
    expect(getComputedStyle(listbox).overflow).toBe('auto');
    expect(
      within(popup ?? listbox).getByRole('button', { name: 'Load more releases' }),
    ).toBeTruthy();
  });

  it('loads the next page when the keyboard reaches the last release', async () => {
    const { user, reads } = setup(Array.from({ length: 55 }, (_, index) => release(index + 1)));
    await user.click(combobox());
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(51));
    await user.keyboard('{End}');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(56));
    expect(reads().map((read) => read.skip)).toEqual(['0', '50']);
  });

  it('searches on the server by version, commit prefix and tag, after typing pauses', async () => {
    const { user, reads } = setup([
      release(1, { commit: 'aa11bb22cc33' }),
      release(2, { release_tag: [{ id: 1, tag_key: 'Branch', value: 'hotfix-Radio' }] }),
      release(3, { raw_version: '4.2.0', semver: '4.2.0' }),
    ]);
    await user.click(combobox());
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(4));
    await user.type(combobox(), '4.2');
    await waitFor(() => expect(optionNames()).toEqual([expect.stringMatching(/^4\.2\.0/)]));
    const searched = reads().at(-1)?.filter;
    expect(searched).toContain("contains(tolower(raw_version),'4.2')");
    expect(searched).toContain("contains(tolower(semver),'4.2')");
    expect(searched).toContain("startswith(tolower(commit),'4.2')");
    expect(searched).toContain('release_tag/any(t:');
    await user.clear(combobox());
    await user.type(combobox(), 'AA11');
    await waitFor(() => expect(optionNames()).toEqual([expect.stringMatching(/^3\.0\.1/)]));
    await user.clear(combobox());
    await user.type(combobox(), 'radio');
    await waitFor(() => expect(optionNames()).toEqual([expect.stringMatching(/^3\.0\.2/)]));
    await user.clear(combobox());
    await user.type(combobox(), 'branch');
    await waitFor(() => expect(optionNames()).toEqual([expect.stringMatching(/^3\.0\.2/)]));
    await user.clear(combobox());
    await user.type(combobox(), 'nothing-like-it');
    expect(await screen.findByText('No releases match')).toBeTruthy();
  });

  it('shows invalidated releases disabled with the reason, and picks a valid one', async () => {
    const { user, chosen } = setup([
      release(1),
      release(2, { is_invalidated: true, invalidation_reason: 'Bricks the sensors' }),
    ]);
    await user.click(combobox());
    const withdrawn = await screen.findByRole('option', { name: /^3\.0\.2/ });
    expect(withdrawn.getAttribute('aria-disabled')).toBe('true');
    expect(withdrawn.textContent).toBe(
      '3.0.22bcdef1 · Invalidated: Bricks the sensors · cannot be pinned',
    );
    await user.click(screen.getByRole('option', { name: /^3\.0\.1/ }));
    expect(chosen).toEqual([1]);
    expect(combobox()).toHaveProperty('value', '3.0.1');
  });

  it('says when the releases cannot be loaded, and tries again', async () => {
    const { api, user } = setup([release(1)]);
    api.refuseNextRead('release', 'The database is unavailable', { status: 400 });
    await user.click(combobox());
    expect(await screen.findByText(/The database is unavailable/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await user.click(combobox());
    expect(await screen.findByRole('option', { name: /^3\.0\.1/ })).toBeTruthy();
  });

  it('refetches every 15 s while open, and not once closed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { user, reads } = setup(
      [release(1)],
      userEvent.setup({ advanceTimers: vi.advanceTimersByTime }),
    );
    await user.click(combobox());
    await screen.findByRole('option', { name: /^3\.0\.1/ });
    expect(reads()).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(releasePickerRefreshMs));
    await waitFor(() => expect(reads()).toHaveLength(2));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    await act(() => vi.advanceTimersByTimeAsync(3 * releasePickerRefreshMs));
    expect(reads()).toHaveLength(2);
    expect(within(document.body).queryByRole('option')).toBeNull();
  });
});
