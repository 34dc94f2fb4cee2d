import type { StatusNoticeKind, StatusNoticeSeverity } from '@flotilla/shared/status/status';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { MutationError } from '../../ui/MutationError.js';
import { usePostNotice } from './api.js';

// Admin → Status: posting an incident or a maintenance notice.
export const NoticeForm = () => {
  const post = usePostNotice();
  const [kind, setKind] = useState<StatusNoticeKind>('incident');
  const [severity, setSeverity] = useState<StatusNoticeSeverity>('minor');
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  return (
    <Paper
      variant="outlined"
      component="form"
      aria-label="Post a notice"
      sx={{ p: 2, mb: 3 }}
      onSubmit={(event) => {
        event.preventDefault();
        post.mutate(
          { kind, severity, title, message },
          {
            onSuccess: () => {
              setTitle('');
              setMessage('');
            },
          },
        );
      }}
    >
      <Typography variant="h2" sx={{ mb: 2 }}>
        Post a notice
      </Typography>
      <Stack spacing={2}>
        <Stack direction="row" spacing={2}>
          <TextField
            select
            size="small"
            label="Kind"
            value={kind}
            onChange={(event) =>
              setKind(event.target.value === 'maintenance' ? 'maintenance' : 'incident')
            }
            sx={{ minWidth: 160 }}
          >
            <MenuItem value="incident">Incident</MenuItem>
            <MenuItem value="maintenance">Maintenance</MenuItem>
          </TextField>
          <TextField
            select
            size="small"
            label="Severity"
            value={severity}
            onChange={(event) => setSeverity(event.target.value === 'major' ? 'major' : 'minor')}
            sx={{ minWidth: 160 }}
          >
            <MenuItem value="minor">Minor</MenuItem>
            <MenuItem value="major">Major</MenuItem>
          </TextField>
        </Stack>
        <TextField
          size="small"
          label="Title"
          required
          value={title}
          onChange={(event) => setTitle(event.target.value)}
          slotProps={{ htmlInput: { maxLength: 200 } }}
        />
        <TextField
          size="small"
          label="Message"
          multiline
          minRows={2}
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          slotProps={{ htmlInput: { maxLength: 5000 } }}
        />
        <MutationError error={post.error} fallback="Could not post the notice" />
        <Box>
          <Button
            type="submit"
            variant="contained"
            disabled={post.isPending || title.trim() === ''}
          >
            Post
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
};
