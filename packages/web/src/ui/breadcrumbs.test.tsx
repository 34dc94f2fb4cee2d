// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { BreadcrumbProvider, Breadcrumbs, type Crumb, useBreadcrumbs } from './breadcrumbs.js';

afterEach(cleanup);

const Layer = ({ crumbs, depth }: { crumbs: Crumb[]; depth?: number }) => {
  useBreadcrumbs(crumbs, depth);
  return null;
};

const fleet: Crumb[] = [
  { label: 'Acme', to: '/orgs/3/fleets' },
  { label: 'garden', to: '/fleets/12' },
];
const release: Crumb[] = [
  { label: 'Releases', to: '/fleets/12/releases' },
  { label: '1.2.0', to: '/fleets/12/releases/5' },
];

// A layout (depth 0) with a page inside it (depth 1) that can be closed.
const Page = ({ withLayout = true }: { withLayout?: boolean }) => {
  const [open, setOpen] = useState(true);
  return (
    <>
      {withLayout ? <Layer crumbs={fleet} /> : null}
      {open ? <Layer crumbs={release} depth={1} /> : null}
      <button onClick={() => setOpen(false)}>close</button>
      <Breadcrumbs />
    </>
  );
};

const trail = () =>
  within(screen.getByRole('navigation', { name: 'Breadcrumbs' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

const renderPage = (withLayout = true) =>
  render(
    <MemoryRouter>
      <BreadcrumbProvider>
        <Page withLayout={withLayout} />
      </BreadcrumbProvider>
    </MemoryRouter>,
  );

describe('breadcrumbs', () => {
  it("shows a page's crumbs after its layout's, and drops them when the page goes", async () => {
    renderPage();
    expect(trail()).toEqual(['Acme', 'garden', 'Releases', '1.2.0']);
    expect(screen.getByRole('link', { name: 'Releases' }).getAttribute('href')).toBe(
      '/fleets/12/releases',
    );
    await userEvent.click(screen.getByRole('button', { name: 'close' }));
    expect(trail()).toEqual(['Acme', 'garden']);
  });

  it("shows no trail from a page's crumbs alone", () => {
    renderPage(false);
    expect(screen.queryByRole('navigation', { name: 'Breadcrumbs' })).toBeNull();
  });
});
