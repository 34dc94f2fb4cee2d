import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { RequirePermission } from '../../api/session/guards.js';
import { isAdmin, useSession } from '../../api/session/useSession.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { NoticeForm } from './NoticeForm.js';
import { Notices } from './Notices.js';

// /admin/status: incidents and maintenance notices of the status page (platform administrators).
export const StatusAdminPage = () => {
  const session = useSession();
  usePageTitle('Status notices');
  return (
    <RequirePermission allowed={isAdmin(session)} loading={false}>
      <Stack direction="row" sx={{ mb: 2, alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="h1">Status notices</Typography>
        <Button component={RouterLink} to="/status" variant="outlined">
          Open the status page
        </Button>
      </Stack>
      <NoticeForm />
      <Notices />
    </RequirePermission>
  );
};
