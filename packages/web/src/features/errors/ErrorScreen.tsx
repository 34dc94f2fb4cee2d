import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useRouteError } from 'react-router';
import { errorText } from '@flotilla/sdk/errors';
import { usePageTitle } from '../../ui/usePageTitle.js';

export const ErrorScreen = ({ error }: { error: unknown }) => {
  usePageTitle('Error');
  return (
    <Box role="alert" sx={{ maxWidth: 560, mx: 'auto', mt: 12, textAlign: 'center', px: 2 }}>
      <Typography variant="h1" gutterBottom>
        Something went wrong
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3, whiteSpace: 'pre-wrap' }}>
        {errorText(error) ?? 'An error has occurred'}
      </Typography>
      <Button variant="contained" onClick={() => window.location.reload()}>
        Refresh
      </Button>
    </Box>
  );
};

// Router error element: any error thrown while rendering a route.
export const RouteErrorScreen = () => <ErrorScreen error={useRouteError()} />;
