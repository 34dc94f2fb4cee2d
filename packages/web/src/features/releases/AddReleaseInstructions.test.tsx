// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { AddReleaseInstructions } from './AddReleaseInstructions.js';

afterEach(cleanup);

const show = (serverUrl: string) =>
  render(
    <MemoryRouter>
      <AddReleaseInstructions
        fleetSlug="acme/garden-sensors"
        serverUrl={serverUrl}
        userAgent="Mozilla/5.0 (X11; Linux x86_64)"
      />
    </MemoryRouter>,
  );

describe('the git route of the Add-release instructions', () => {
  it("shows this fleet's remote on this server and the exact commands", () => {
    show('https://flotilla.example.com:8443');
    expect(screen.getByLabelText('git commands').textContent).toBe(
      [
        'git remote add flotilla https://flotilla.example.com:8443/git/acme/garden-sensors.git',
        'git push flotilla main',
      ].join('\n'),
    );
  });

  it('says where the password comes from and that only main or master builds', () => {
    show('http://localhost:3000/');
    expect(screen.getByLabelText('git commands').textContent).toContain(
      'http://localhost:3000/git/acme/garden-sensors.git',
    );
    const git = screen.getByRole('region', { name: 'With git' });
    expect(within(git).getByRole('link', { name: 'API key' }).getAttribute('href')).toBe(
      '/preferences/access-tokens',
    );
    expect(git.textContent).toMatch(/A push to main \(or master\) builds a release/);
    expect(git.textContent).not.toMatch(/not available on this server/);
  });
});
