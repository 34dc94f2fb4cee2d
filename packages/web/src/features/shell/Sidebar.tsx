import AppsIcon from '@mui/icons-material/Apps';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import DeveloperBoardIcon from '@mui/icons-material/DeveloperBoard';
import GroupsIcon from '@mui/icons-material/Groups';
import KeyIcon from '@mui/icons-material/Key';
import ViewInArIcon from '@mui/icons-material/ViewInAr';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Toolbar from '@mui/material/Toolbar';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { sidebarCollapsedWidth, sidebarWidth } from '../../ui/theme.js';
import { navigationStripes, useNavigationStripes } from '../../ui/local-preferences.js';
import { useAppsEnabled } from '../../ui/useAppsEnabled.js';

type Item = { to: string; label: string; icon: ReactNode };

export const Sidebar = ({
  collapsed,
  onToggle,
  mobileOpen,
  onMobileClose,
  isMobile,
}: {
  collapsed: boolean;
  onToggle: () => void;
  mobileOpen: boolean;
  onMobileClose: () => void;
  isMobile: boolean;
}) => {
  const appsEnabled = useAppsEnabled();
  const stripes = useNavigationStripes();
  const items: Item[] = [
    { to: '/fleets', label: 'Fleets', icon: <DeveloperBoardIcon /> },
    ...(appsEnabled ? [{ to: '/apps', label: 'Apps', icon: <AppsIcon /> }] : []),
    { to: '/blocks', label: 'Blocks', icon: <ViewInArIcon /> },
    { to: '/orgs', label: 'Organizations', icon: <GroupsIcon /> },
    { to: '/identity-provider', label: 'Identity provider', icon: <KeyIcon /> },
  ];
  const narrow = collapsed && !isMobile;
  const width = narrow ? sidebarCollapsedWidth : sidebarWidth;
  const content = (
    <Box
      component="nav"
      aria-label="Main navigation"
      data-stripes={stripes ? 'on' : undefined}
      sx={{
        width,
        overflowX: 'hidden',
        minHeight: '100%',
        ...(stripes ? { backgroundImage: navigationStripes } : {}),
      }}
    >
      <Toolbar />
      <List>
        {items.map((item) => (
          // A native title rather than a Tooltip: keeps the popper library out of the first load.
          <ListItemButton
            key={item.to}
            title={narrow ? item.label : undefined}
            aria-label={item.label}
            component={NavLink}
            to={item.to}
            onClick={isMobile ? onMobileClose : undefined}
            sx={{ '&.active': { bgcolor: 'action.selected' }, minHeight: 44 }}
          >
            <ListItemIcon sx={{ minWidth: 40 }}>{item.icon}</ListItemIcon>
            {narrow ? null : <ListItemText primary={item.label} />}
          </ListItemButton>
        ))}
      </List>
      {isMobile ? null : (
        <Box sx={{ display: 'flex', justifyContent: narrow ? 'center' : 'flex-end', px: 1 }}>
          <IconButton
            aria-label={narrow ? 'Expand sidebar' : 'Collapse sidebar'}
            onClick={onToggle}
            size="small"
          >
            {narrow ? <ChevronRightIcon /> : <ChevronLeftIcon />}
          </IconButton>
        </Box>
      )}
    </Box>
  );
  if (isMobile) {
    return (
      <Drawer
        variant="temporary"
        open={mobileOpen}
        onClose={onMobileClose}
        ModalProps={{ keepMounted: true }}
      >
        {content}
      </Drawer>
    );
  }
  return (
    <Drawer
      variant="permanent"
      sx={{
        width,
        flexShrink: 0,
        '& .MuiDrawer-paper': { width, boxSizing: 'border-box', transition: 'width 150ms' },
      }}
    >
      {content}
    </Drawer>
  );
};
