import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { safeRedirect } from './safe-redirect.js';
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

const twoFactorPath = '/login/two-factor';

// Signed-in-only routes: guests go to /login and sessions whose second factor is pending to
// /login/two-factor, both keeping where they wanted to go; the path is
// remembered per user for the next login. Unverified users are sent to the pending e-mail
// verification page by the shell (AppLayout), once their profile is loaded.
export const RequireSession = ({ children }: { children: ReactNode }) => {
  const session = useSession();
  const location = useLocation();
  const path = `${location.pathname}${location.search}`;
  const userId = session !== null && session.twoFactorRequired !== true ? session.userId : null;
  useEffect(() => {
    if (userId !== null) rememberLastPath(userId, path);
  }, [userId, path]);
  if (userId === null) {
    const target = session?.twoFactorRequired === true ? twoFactorPath : '/login';
    return <Navigate to={`${target}?redirect=${encodeURIComponent(path)}`} replace />;
  }
  return <>{children}</>;
};

// Where a session that just got through the login goes: the redirect query, else the last path
// this user visited (unless it was the fleet list), else /.
const afterLogin = (search: string, userId: number): string =>
  safeRedirect(new URLSearchParams(search).get('redirect')) ?? lastPathToRestore(userId) ?? '/';

// Guest-only routes (login, sign-up): once signed in, go on (afterLogin); a session whose second
// factor is pending goes to the two-factor page, keeping the query.
export const RequireGuest = ({ children }: { children: ReactNode }) => {
  const session = useSession();
  const location = useLocation();
  if (session?.twoFactorRequired === true) {
    return <Navigate to={`${twoFactorPath}${location.search}`} replace />;
  }
  if (session) return <Navigate to={afterLogin(location.search, session.userId)} replace />;
  return <>{children}</>;
};

// The two-factor page: only for a session whose second factor is pending. Guests go to /login,
// a session that passed goes on (afterLogin).
export const RequirePendingTwoFactor = ({ children }: { children: ReactNode }) => {
  const session = useSession();
  const location = useLocation();
  if (session === null) return <Navigate to={`/login${location.search}`} replace />;
  if (session.twoFactorRequired !== true) {
    return <Navigate to={afterLogin(location.search, session.userId)} replace />;
  }
  return <>{children}</>;
};

// Routes needing a permission the user lacks send them to /.
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
