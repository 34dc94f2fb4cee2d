import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';

type Loadable = { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };

// The loading and error states of a variables screen: skeleton rows, or the error with a retry.
// Null when everything is loaded.
export const LoadState = ({ queries, what }: { queries: readonly Loadable[]; what: string }) => {
  const failed = queries.find((query) => query.isError);
  if (failed) {
    return (
      <Alert
        severity="error"
        action={
          <Button
            color="inherit"
            size="small"
            onClick={() => queries.forEach((query) => void query.refetch())}
          >
            Retry
          </Button>
        }
      >
        {errorText(failed.error) ?? `Could not load the ${what}`}
      </Alert>
    );
  }
  if (queries.some((query) => query.isPending)) {
    return (
      <Box aria-busy="true" aria-label={`Loading the ${what}`}>
        {[0, 1, 2, 3].map((index) => (
          <Skeleton key={index} variant="rounded" height={40} sx={{ mb: 1 }} />
        ))}
      </Box>
    );
  }
  return null;
};
