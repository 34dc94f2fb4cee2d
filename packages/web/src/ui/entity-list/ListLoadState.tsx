import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';

type Loadable = { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };

// A list's states before its table: a skeleton while loading, the error (with a retry when asked)
// and the empty text in an outlined paper; the list itself (`children`) once there are rows.
export const ListLoadState = ({
  query,
  failure,
  retry = false,
  empty,
  emptySx = { p: 4, textAlign: 'center' },
  skeletonHeight = 160,
  children,
}: {
  query: Loadable;
  // The error shown when the server gave no reason.
  failure: string;
  retry?: boolean;
  // The text shown when loaded with no rows; null when there are rows.
  empty: ReactNode | null;
  emptySx?: SxProps<Theme>;
  skeletonHeight?: number;
  children: ReactNode;
}) => {
  if (query.isPending)
    return <Skeleton variant="rounded" height={skeletonHeight} aria-label="Loading" />;
  if (query.isError) {
    return (
      <Alert
        severity="error"
        {...(retry
          ? {
              action: (
                <Button color="inherit" size="small" onClick={() => void query.refetch()}>
                  Retry
                </Button>
              ),
            }
          : {})}
      >
        {errorText(query.error) ?? failure}
      </Alert>
    );
  }
  if (empty !== null) {
    return (
      <Paper variant="outlined" sx={emptySx}>
        <Typography color="text.secondary">{empty}</Typography>
      </Paper>
    );
  }
  return <>{children}</>;
};
