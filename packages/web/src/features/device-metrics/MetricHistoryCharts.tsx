import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { lazy, Suspense } from 'react';
import { useMetricHistory } from './api.js';

const MetricCharts = lazy(async () => ({
  default: (await import('./MetricCharts.js')).MetricCharts,
}));

const Loading = () => (
  <Skeleton variant="rectangular" height={120} aria-label="Loading metric history" />
);

// The recent history of the device's metrics (the server's retention, a day by default) under its bars, read again every minute.
export const MetricHistoryCharts = ({ uuid }: { uuid: string }) => {
  const history = useMetricHistory(uuid);
  let body;
  if (history.isPending) body = <Loading />;
  else if (history.isError) {
    body = <Alert severity="error">Could not load the metric history.</Alert>;
  } else if (history.data.points.length === 0) {
    body = (
      <Typography variant="body2" color="text.secondary">
        No readings yet.
      </Typography>
    );
  } else {
    body = (
      <Suspense fallback={<Loading />}>
        <MetricCharts history={history.data} />
      </Suspense>
    );
  }
  return (
    <Box component="section" aria-labelledby="metric-history-title" sx={{ mt: 2 }}>
      <Typography id="metric-history-title" variant="subtitle2" component="h3" gutterBottom>
        History
      </Typography>
      {body}
    </Box>
  );
};
