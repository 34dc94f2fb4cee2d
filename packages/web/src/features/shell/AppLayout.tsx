import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { lazy, Suspense, useState } from 'react';
import { Navigate, Link as RouterLink, Outlet } from 'react-router';
import { BreadcrumbProvider, Breadcrumbs } from '../../ui/breadcrumbs.js';
import { ChangelogButton } from '../changelog/ChangelogButton.js';
import { useMustVerify } from '../email-verification/useMustVerify.js';
import { LoginAsBanner } from '../platform-admin/LoginAsBanner.js';
import { PasswordLimitBanner } from './PasswordLimitBanner.js';
import { LoadingScreen } from '../../api/session/guards.js';
import { useSession } from '../../api/session/useSession.js';
import { pendingProfileStep, signupProfilePath } from '../signup-profile/profile-step.js';
import { usePublicConfig } from './api.js';
import { headerRedByDefault } from './header-colour.js';
import { OfflineBanner, OutOfDateBanner, ThrottleNotice } from './Banners.js';
import { CookieBanner } from './CookieBanner.js';
import { HelpMenu } from './HelpMenu.js';
import { StatusDot } from '../status/StatusDot.js';
import {
  headerBackground,
  headerStripes,
  useHeaderColor,
  useNavigationStripes,
} from '../../ui/local-preferences.js';
import { useDeploymentTag } from '../../ui/deployment-tag.js';
import { Sidebar } from './Sidebar.js';
import { UserMenu } from './UserMenu.js';

const collapsedKey = 'flotilla.sidebarCollapsed';

// Billing notices load only on an installation that bills (kept out of the initial chunk).
const BillingNotices = lazy(async () => ({
  default: (await import('./BillingNotices.js')).BillingNotices,
}));

// The chrome around every signed-in screen: header, sidebar (drawer on mobile), banners. A user who
// must verify their e-mail address first goes to the page that waits for it, and a new account to
// its profile step.
export const AppLayout = () => {
  const mustVerify = useMustVerify();
  const session = useSession();
  const userId = session?.userId;
  const headerColor = headerBackground(useHeaderColor(), headerRedByDefault(session));
  const stripes = useNavigationStripes();
  const [deploymentTag] = useDeploymentTag();
  const billing = usePublicConfig().data?.billingEnabled === true;
  const theme = useTheme();
  const isMobile = useMediaQuery(theme.breakpoints.down('md'));
  const [collapsed, setCollapsed] = useState(
    () => window.localStorage.getItem(collapsedKey) === 'true',
  );
  const [mobileOpen, setMobileOpen] = useState(false);
  const toggle = (): void => {
    setCollapsed((value) => {
      window.localStorage.setItem(collapsedKey, String(!value));
      return !value;
    });
  };
  if (mustVerify === 'unknown') return <LoadingScreen label="Loading your account" />;
  if (mustVerify) return <Navigate to="/user/verify-email/pending" replace />;
  // A new account completes its profile first: sign-up, verification, then /signup/profile.
  if (userId !== undefined && pendingProfileStep(userId) !== null) {
    return <Navigate to={signupProfilePath} replace />;
  }
  return (
    <BreadcrumbProvider>
      <Box sx={{ display: 'flex', minHeight: '100vh' }}>
        <AppBar
          position="fixed"
          data-stripes={stripes ? 'on' : undefined}
          sx={{
            zIndex: theme.zIndex.drawer + 1,
            ...(headerColor === undefined ? {} : { bgcolor: headerColor }),
            ...(stripes ? { backgroundImage: headerStripes } : {}),
          }}
        >
          <Toolbar sx={{ gap: 1 }}>
            {isMobile ? (
              <IconButton
                color="inherit"
                edge="start"
                aria-label="Open navigation"
                onClick={() => setMobileOpen(true)}
              >
                <MenuIcon />
              </IconButton>
            ) : null}
            <Typography
              variant="h6"
              component={RouterLink}
              to="/"
              sx={{ color: 'inherit', textDecoration: 'none', fontWeight: 700 }}
            >
              Flotilla
            </Typography>
            {deploymentTag === null ? null : (
              <Box
                component="span"
                role="note"
                aria-label={`Deployment: ${deploymentTag}`}
                title={`This installation is tagged ${deploymentTag}`}
                sx={{
                  px: 1,
                  py: 0.25,
                  borderRadius: 3,
                  bgcolor: 'rgba(0, 0, 0, 0.25)',
                  fontSize: '0.8125rem',
                  fontWeight: 600,
                }}
              >
                {deploymentTag}
              </Box>
            )}
            <Box sx={{ flexGrow: 1 }} />
            <ChangelogButton />
            <StatusDot />
            <HelpMenu />
            <UserMenu />
          </Toolbar>
        </AppBar>
        <Sidebar
          collapsed={collapsed}
          onToggle={toggle}
          mobileOpen={mobileOpen}
          onMobileClose={() => setMobileOpen(false)}
          isMobile={isMobile}
        />
        <Box component="main" sx={{ flexGrow: 1, minWidth: 0 }}>
          <Toolbar />
          <LoginAsBanner />
          <PasswordLimitBanner />
          <OfflineBanner />
          <ThrottleNotice />
          <OutOfDateBanner />
          <CookieBanner />
          {billing ? (
            <Suspense fallback={null}>
              <BillingNotices />
            </Suspense>
          ) : null}
          <Box sx={{ p: { xs: 2, md: 3 } }}>
            <Breadcrumbs />
            <Outlet />
          </Box>
        </Box>
      </Box>
    </BreadcrumbProvider>
  );
};
