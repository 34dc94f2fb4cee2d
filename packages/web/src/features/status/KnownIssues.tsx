import { hasKnownIssues } from '@flotilla/shared/status/status';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router';
import { useStatus } from './api.js';
import { overallText } from './status-presentation.js';

// The support drawer's known-issues warning: while the status is anything but operational, say so
// (with the first open notice's title) and link to the status page, so a user about to open a
// ticket learns first of what is already known.
export const KnownIssues = () => {
  const status = useStatus();
  if (!status.data || !hasKnownIssues(status.data)) return null;
  const { status: overall, externalUrl, notices } = status.data;
  const first = notices?.[0];
  const link =
    externalUrl === null ? (
      <Link component={RouterLink} to="/status">
        status page
      </Link>
    ) : (
      <Link href={externalUrl} target="_blank" rel="noopener noreferrer">
        status page
      </Link>
    );
  return (
    <Alert severity="warning" role="status" aria-label="Known issues">
      {overallText[overall]}
      {first ? `: ${first.title}` : ''}. See the {link}.
    </Alert>
  );
};
