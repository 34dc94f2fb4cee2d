import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useClient } from '../../app/client.js';
import { lastPathToRestore, rememberLastPath } from './last-path.js';
import { useSession } from './useSession.js';

export const LoadingScreen = ({ label = 'Loading' }: { label?: string }) => (
  <Box
    sx={{ display: 'grid', placeItems: 'center', minHeight: '60vh' }}
    role="status"
    aria-label={label}
  >
    <CircularProgress />
  </Box>
);

const safeRedirect = (value: string | null): string | null =>
  value?.startsWith('/') && !value.startsWith('//') ? value : null;

export const verifyEmailPendingPath = '/user/verify-email/pending';

// The two profile fields of the signed-in user the guard needs (the user_profile view of the
// user row; a user may read their own). null: the row is not visible, nothing to enforce.
export type EmailVerification = { must_be_verified: boolean; is_verified: boolean };

// Cached for the session (the cache is cleared on logout); whatever verifies the e-mail
// invalidates this key.
export const emailVerificationKey = (userId: number) =>
  ['user-profile', userId, 'email-verification'] as const;

// Shared with the router, which starts this read together with the first screen's code.
export const emailVerificationQuery = (client: FlotillaClient, userId: number) =>
  queryOptions({
    queryKey: emailVerificationKey(userId),
    queryFn: async (): Promise<EmailVerification | null> => {
      const row: unknown = await client.pine.get({
        resource: 'user_profile',
        id: userId,
        options: { $select: ['must_be_verified', 'is_verified'] },
      });
      return (row as EmailVerification | undefined) ?? null;
    },
    staleTime: Infinity,
  });

const useEmailVerification = (userId: number | null) => {
  const client = useClient();
  return useQuery({ ...emailVerificationQuery(client, userId ?? 0), enabled: userId !== null });
};

export const mustVerifyEmail = (verification: EmailVerification | null | undefined): boolean =>
  verification?.must_be_verified === true && !verification.is_verified;

// Signed-in-only routes: guests go to /login (keeping where they wanted to go) and a pending second
// factor goes to /login/two-factor. Then the profile is loaded (a loading indicator until then) and
// a user whose e-mail must be verified and is not goes to the pending verification page (seed 000
// section 2.2); a failed profile read lets the user through (the server enforces access). The
// path is remembered per user for the next login.
export const RequireSession = ({ children }: { children: ReactNode }) => {
  const session = useSession();
  const location = useLocation();
  const path = `${location.pathname}${location.search}`;
  const signedIn = session !== null && session.twoFactorRequired !== true;
  const verification = useEmailVerification(signedIn ? session.userId : null);
  useEffect(() => {
    if (session && !session.twoFactorRequired) rememberLastPath(session.userId, path);
  }, [session, path]);
  if (!session) return <Navigate to={`/login?redirect=${encodeURIComponent(path)}`} replace />;
  if (session.twoFactorRequired) return <Navigate to="/login/two-factor" replace />;
  if (verification.isPending) return <LoadingScreen label="Loading your profile" />;
  if (mustVerifyEmail(verification.data)) return <Navigate to={verifyEmailPendingPath} replace />;
  return <>{children}</>;
};

// Guest-only routes (login, sign-up): once signed in, go to the redirect query, else the last path
// this user visited (unless it was the fleet list), else /.
export const RequireGuest = ({ children }: { children: ReactNode }) => {
  const session = useSession();
  const location = useLocation();
  if (session && !session.twoFactorRequired) {
    const target =
      safeRedirect(new URLSearchParams(location.search).get('redirect')) ??
      lastPathToRestore(session.userId) ??
      '/';
    return <Navigate to={target} replace />;
  }
  return <>{children}</>;
};

// Routes needing a permission the user lacks send them to / (seed 000 section 2.2).
export const RequirePermission = ({
  allowed,
  loading,
  children,
}: {
  allowed: boolean;
  loading: boolean;
  children: ReactNode;
}) => {
  if (loading) return <LoadingScreen />;
  if (!allowed) return <Navigate to="/" replace />;
  return <>{children}</>;
};
