// @vitest-environment jsdom
import { invitationMessageMaxLength } from '@flotilla/shared/constants/limits';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { InviteDialog } from './InviteDialog.js';

afterEach(cleanup);

describe('InviteDialog message', () => {
  it('takes at most the length the server accepts, and says the mail quotes it', async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <InviteDialog
          open
          title="Invite member"
          roles={['member']}
          defaultRole="member"
          submitLabel="Invite"
          onSubmit={() => Promise.resolve()}
          onClose={() => undefined}
        />
      </QueryClientProvider>,
    );
    const field = await screen.findByLabelText('Message (optional)');
    expect(field.getAttribute('maxlength')).toBe(String(invitationMessageMaxLength));
    expect(
      screen.getByText(`0/${invitationMessageMaxLength}, quoted in the mail as yours`),
    ).toBeTruthy();
  });
});
