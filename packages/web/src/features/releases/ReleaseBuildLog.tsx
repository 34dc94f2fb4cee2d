import { buildLogDisplayLines } from '@flotilla/shared/releases/builder-limits';
import DownloadIcon from '@mui/icons-material/Download';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useLayoutEffect, useRef, useState } from 'react';
import { downloadText } from '../../ui/download.js';
import { buildLogFileName } from './release-files.js';

// The last lines of a log, at most the display limit (2,999 lines); the download has them all.
export const lastLines = (
  text: string | null,
): { lines: string[]; dropped: number; total: number } => {
  const all = text === null || text === '' ? [] : text.split('\n');
  const dropped = Math.max(0, all.length - buildLogDisplayLines);
  return { lines: all.slice(dropped), dropped, total: all.length };
};

const allServices = '';

// Within this many pixels of the end, the view counts as following the log.
const followSlackPx = 24;

// The release's build log, or one service's, with a service selector, download and
// expand/minimize. Like a terminal it shows the end, and keeps to it as a running build's log
// grows, unless the user scrolled up to read.
export const ReleaseBuildLog = ({
  fleetName,
  commit,
  releaseLog,
  services,
}: {
  fleetName: string;
  commit: string;
  releaseLog: string | null;
  services: readonly { name: string; log: string | null }[];
}) => {
  const [service, setService] = useState(allServices);
  const [expanded, setExpanded] = useState(false);
  const chosen = services.find((entry) => entry.name === service);
  const log = chosen ? chosen.log : releaseLog;
  const { lines, dropped, total } = lastLines(log);
  const view = useRef<HTMLPreElement>(null);
  const following = useRef(true);
  useLayoutEffect(() => {
    const element = view.current;
    if (element !== null && following.current) element.scrollTop = element.scrollHeight;
  }, [log, expanded]);
  return (
    <Paper variant="outlined" component="section" aria-labelledby="build-log-title" sx={{ p: 2 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography id="build-log-title" variant="h3" sx={{ flex: 1 }}>
          Build log
        </Typography>
        <TextField
          select
          size="small"
          label="Service"
          value={service}
          onChange={(event) => {
            following.current = true;
            setService(event.target.value);
          }}
          // "All services" is the empty value: shown as chosen, under a raised label.
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          sx={{ minWidth: 180 }}
        >
          <MenuItem value={allServices}>All services</MenuItem>
          {services.map((entry) => (
            <MenuItem key={entry.name} value={entry.name}>
              {entry.name}
            </MenuItem>
          ))}
        </TextField>
        <Button
          size="small"
          startIcon={<DownloadIcon />}
          aria-label="Download the build log"
          disabled={log === null || log === ''}
          onClick={() => downloadText(log ?? '', buildLogFileName(fleetName, commit, chosen?.name))}
        >
          Download
        </Button>
        <Button size="small" onClick={() => setExpanded((open) => !open)}>
          {expanded ? 'Minimize' : 'Expand'}
        </Button>
      </Stack>
      {dropped > 0 ? (
        <Typography variant="body2" color="text.secondary">
          Showing the last {buildLogDisplayLines.toLocaleString('en')} of{' '}
          {total.toLocaleString('en')} lines; the download has all of them.
        </Typography>
      ) : null}
      <Box
        component="pre"
        ref={view}
        aria-label="Build log lines"
        onScroll={(event) => {
          const element = event.currentTarget;
          following.current =
            element.scrollHeight - element.scrollTop - element.clientHeight <= followSlackPx;
        }}
        sx={{
          m: 0,
          p: 1.5,
          bgcolor: 'grey.900',
          color: 'grey.100',
          borderRadius: 1,
          fontSize: 13,
          whiteSpace: 'pre-wrap',
          maxHeight: expanded ? 'none' : 240,
          overflowY: 'auto',
        }}
      >
        {lines.length === 0 ? 'No build log' : lines.join('\n')}
      </Box>
    </Paper>
  );
};
