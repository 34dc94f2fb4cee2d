// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EntityTable } from './EntityTable.js';

afterEach(cleanup);

type Key = { id: number; name: string };

const columns = [{ key: 'name', header: 'Name', cell: (row: Key) => row.name }];

describe('the entity list', () => {
  it('says it is empty in one row spanning every column', () => {
    render(
      <EntityTable
        label="Keys"
        rows={[]}
        columns={columns}
        emptyText="No keys yet"
        rowActions={{ cell: () => null }}
      />,
    );
    const cell = screen.getByText('No keys yet').closest('td');
    expect(cell?.getAttribute('colspan')).toBe('2');
    expect(screen.getByRole('columnheader', { name: 'Actions' })).toBeTruthy();
  });

  it('shows each row with its actions', () => {
    render(
      <EntityTable
        label="Keys"
        rows={[
          { id: 1, name: 'first' },
          { id: 2, name: 'second' },
        ]}
        columns={columns}
        emptyText="No keys yet"
        rowActions={{ header: 'Actions', cell: (row) => <button>Revoke {row.name}</button> }}
      />,
    );
    const table = screen.getByRole('table', { name: 'Keys' });
    expect(within(table).queryByText('No keys yet')).toBeNull();
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(screen.getByRole('button', { name: 'Revoke second' })).toBeTruthy();
  });

  it('selects one row, or every row of the page at once', async () => {
    const onChange = vi.fn();
    const rows = [
      { id: 1, name: 'first' },
      { id: 2, name: 'second' },
    ];
    const selection = {
      selected: [2],
      onChange,
      rowLabel: (row: Key) => `Select ${row.name}`,
      allLabel: 'Select all keys',
    };
    render(<EntityTable label="Keys" rows={rows} columns={columns} selection={selection} />);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select first' }));
    expect(onChange).toHaveBeenLastCalledWith([2, 1]);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select second' }));
    expect(onChange).toHaveBeenLastCalledWith([]);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all keys' }));
    expect(onChange).toHaveBeenLastCalledWith([1, 2]);
  });
});
