import type { InvitationKind } from '@flotilla/shared/invitations/invitation-token';
import { useMutation } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';

// What accepting answers: the organization or fleet the user joined.
export type Accepted = Partial<Record<InvitationKind, { id: number; name: string }>>;

// Accepts an invitation (POST to the kind's accept path with the token); the page shows the
// error itself and says where the user landed.
export const useAcceptInvitation = (
  acceptPath: string,
  token: string,
  onSuccess: (answer: Accepted) => void,
) => {
  const client = useClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: () =>
      client.request<Accepted>({
        method: 'POST',
        path: `${acceptPath}/${encodeURIComponent(token)}`,
      }),
    onSuccess,
  });
};
