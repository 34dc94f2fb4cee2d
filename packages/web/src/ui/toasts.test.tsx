// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type PageSource,
  type ToastKind,
  ToastProvider,
  useToasts,
  useToastsFollowPages,
} from './toasts.js';

afterEach(cleanup);

type Show = ReturnType<typeof useToasts>['show'];

// A router of plain pages under the toasts, following its pages as the console's App does.
const renderPages = () => {
  const shown: { show: Show | null } = { show: null };
  const Page = ({ name }: { name: string }) => {
    shown.show = useToasts().show;
    return <p>{name}</p>;
  };
  const router = createMemoryRouter(
    ['a', 'b', 'c'].map((name) => ({ path: `/${name}`, element: <Page name={name} /> })),
    { initialEntries: ['/a'] },
  );
  const Follow = ({ source }: { source: PageSource }) => {
    useToastsFollowPages(source);
    return <RouterProvider router={router} />;
  };
  render(
    <ToastProvider>
      <Follow source={router} />
    </ToastProvider>,
  );
  const show = (kind: ToastKind, text: string, afterNavigation = false) =>
    act(() => {
      if (!shown.show) throw new Error('no page rendered');
      shown.show(kind, text, { afterNavigation });
    });
  const go = (path: string) => act(() => router.navigate(path));
  return { show, go };
};

describe('toasts and page changes', () => {
  it('a success toast ends when the user goes to another page', async () => {
    const { show, go } = renderPages();
    await screen.findByText('a');
    show('success', 'Team deleted');
    expect(screen.getByText('Team deleted')).toBeTruthy();
    await go('/b');
    expect(await screen.findByText('b')).toBeTruthy();
    expect(screen.queryByText('Team deleted')).toBeNull();
  });

  it('a query change on the same page keeps it', async () => {
    const { show, go } = renderPages();
    await screen.findByText('a');
    show('info', 'Saved');
    await go('/a?page=2');
    expect(screen.getByText('Saved')).toBeTruthy();
  });

  it('a toast shown for the page the action goes to outlives that one change only', async () => {
    const { show, go } = renderPages();
    await screen.findByText('a');
    show('success', 'You left the organization', true);
    await go('/b');
    expect(await screen.findByText('b')).toBeTruthy();
    expect(screen.getByText('You left the organization')).toBeTruthy();
    await go('/c');
    expect(await screen.findByText('c')).toBeTruthy();
    expect(screen.queryByText('You left the organization')).toBeNull();
  });

  it('an error (a redirect says why through one) stays across the change', async () => {
    const { show, go } = renderPages();
    await screen.findByText('a');
    show('error', 'invalid id passed in url');
    await go('/b');
    expect(await screen.findByText('b')).toBeTruthy();
    expect(screen.getByText('invalid id passed in url')).toBeTruthy();
  });
});
