import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { LoadState } from '../../ui/LoadState.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useStatus } from './api.js';
import {
  componentText,
  componentTone,
  overallSeverity,
  overallText,
} from './status-presentation.js';

// /status: the built-in status page. Components come from the server's own health; incidents and
// maintenance notices from platform administrators (Admin → Status).
export const StatusPage = () => {
  usePageTitle('Status');
  const status = useStatus();
  return (
    <Box sx={{ maxWidth: 880 }}>
      <Typography variant="h1" sx={{ mb: 2 }}>
        Status
      </Typography>
      <LoadState queries={[status]} what="status" />
      {status.data ? (
        <Stack spacing={2}>
          {status.data.externalUrl === null ? null : (
            <Alert severity="info">
              This installation keeps its status page at{' '}
              <Link href={status.data.externalUrl} target="_blank" rel="noopener noreferrer">
                {status.data.externalUrl}
              </Link>
              .
            </Alert>
          )}
          <Alert severity={overallSeverity[status.data.status]} role="status">
            {overallText[status.data.status]}
          </Alert>
          <Box component="section" aria-label="Incidents and maintenance">
            <Typography variant="h2" sx={{ mb: 1 }}>
              Incidents and maintenance
            </Typography>
            {status.data.notices === null ? (
              <Alert severity="warning">Notices cannot be read right now.</Alert>
            ) : status.data.notices.length === 0 ? (
              <Typography color="text.secondary">No open incidents or maintenance.</Typography>
            ) : (
              <Stack spacing={1}>
                {status.data.notices.map((notice) => (
                  <Paper key={notice.id} variant="outlined" sx={{ p: 2 }}>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
                      <Chip
                        size="small"
                        label={notice.kind === 'incident' ? 'Incident' : 'Maintenance'}
                        color={
                          notice.kind === 'maintenance'
                            ? 'info'
                            : notice.severity === 'major'
                              ? 'error'
                              : 'warning'
                        }
                      />
                      <Typography variant="subtitle1" component="h3">
                        {notice.title}
                      </Typography>
                    </Stack>
                    {notice.message === '' ? null : (
                      <Typography sx={{ whiteSpace: 'pre-wrap' }}>{notice.message}</Typography>
                    )}
                    <Typography variant="caption" color="text.secondary">
                      Posted {new Date(notice.createdAt).toLocaleString()}
                    </Typography>
                  </Paper>
                ))}
              </Stack>
            )}
          </Box>
          <Box component="section" aria-label="Components">
            <Typography variant="h2" sx={{ mb: 1 }}>
              Components
            </Typography>
            <Paper variant="outlined">
              <Table size="small">
                <TableBody>
                  {status.data.components.map((component) => (
                    <TableRow key={component.id}>
                      <TableCell component="th" scope="row">
                        {component.name}
                      </TableCell>
                      <TableCell>{component.detail ?? ''}</TableCell>
                      <TableCell align="right">
                        <Chip
                          size="small"
                          label={componentText[component.status]}
                          color={componentTone[component.status]}
                        />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Paper>
            <Typography variant="caption" color="text.secondary">
              Checked {new Date(status.data.checkedAt).toLocaleString()}
            </Typography>
          </Box>
        </Stack>
      ) : null}
    </Box>
  );
};
