import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
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

// Signed-in-only routes: guests go to /login, keeping where they wanted to go; the path is
// remembered per user for the next login. A session whose second factor is still pending counts
// as a guest: the console has no two-factor page yet (seed 000 section 2.2), so the user signs in
// again. The pending e-mail verification page is not there either; the server enforces access.
export const RequireSession = ({ children }: { children: ReactNode }) => {
  const session = useSession();
  const location = useLocation();
  const path = `${location.pathname}${location.search}`;
  const userId = session !== null && session.twoFactorRequired !== true ? session.userId : null;
  useEffect(() => {
    if (userId !== null) rememberLastPath(userId, path);
  }, [userId, path]);
  if (userId === null)
    return <Navigate to={`/login?redirect=${encodeURIComponent(path)}`} replace />;
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
