import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';

// The other screens of the Admin area.
const adminSections = [
  { to: '/admin/oauth', label: 'OAuth applications' },
  { to: '/admin/outbox', label: 'Mail outbox' },
  { to: '/admin/os-catalogue', label: 'OS catalogue' },
  { to: '/admin/plans', label: 'Plans' },
  { to: '/admin/sales-tax', label: 'Sales tax' },
  { to: '/admin/status', label: 'Status' },
  { to: '/admin/feature-flags', label: 'Feature flags' },
  { to: '/admin/errors', label: 'Errors' },
  { to: '/admin/usage', label: 'Usage' },
  { to: '/admin/audit-log', label: 'Audit log' },
  { to: '/admin/identity-providers', label: 'Identity providers' },
  { to: '/admin/support', label: 'Support queue' },
] as const;

// The Admin area's title, with a link to each of its other screens.
export const AdminHeader = () => (
  <Stack direction="row" sx={{ mb: 2, alignItems: 'center', justifyContent: 'space-between' }}>
    <Typography variant="h1">Admin</Typography>
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      sx={{ flexWrap: 'wrap', justifyContent: 'flex-end' }}
    >
      {adminSections.map((section) => (
        <Button key={section.to} component={RouterLink} to={section.to} variant="outlined">
          {section.label}
        </Button>
      ))}
    </Stack>
  </Stack>
);
