import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { Link as RouterLink, useLocation } from 'react-router';

const sections = [
  { path: '', label: 'Summary' },
  { path: 'location', label: 'Location' },
  { path: 'envvars', label: 'Variables' },
  { path: 'config', label: 'Configuration' },
  { path: 'diagnostics', label: 'Diagnostics' },
] as const;

// The device page's sections.
export const DeviceTabs = ({ uuid }: { uuid: string }) => {
  const { pathname } = useLocation();
  const base = `/devices/${uuid}`;
  const current =
    sections.find(
      (section) => section.path !== '' && pathname.startsWith(`${base}/${section.path}`),
    )?.path ?? '';
  return (
    <Tabs
      value={current}
      aria-label="Device sections"
      variant="scrollable"
      allowScrollButtonsMobile
      sx={{ borderBottom: 1, borderColor: 'divider' }}
    >
      {sections.map((section) => (
        <Tab
          key={section.path}
          label={section.label}
          value={section.path}
          component={RouterLink}
          to={section.path === '' ? base : `${base}/${section.path}`}
        />
      ))}
    </Tabs>
  );
};
