import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useClient } from '../../api/client.js';
import { polling } from '../../ui/polling.js';
import {
  fetchMetricHistory,
  metricHistoryKey,
  metricHistoryRefreshMs,
} from './metric-history-query.js';

const MetricCharts = lazy(async () => ({
  default: (await import('./MetricCharts.js')).MetricCharts,
}));

const Loading = () => (
  <Skeleton variant="rectangular" height={120} aria-label="Loading metric history" />
);

// The recent history of the device's metrics (the server's retention, a day by default) under its bars, read again every minute.
export const MetricHistoryCharts = ({ uuid }: { uuid: string }) => {
  const client = useClient();
  const history = useQuery({
    queryKey: metricHistoryKey(uuid),
    queryFn: () => fetchMetricHistory(client, uuid),
    ...polling(metricHistoryRefreshMs),
  });
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
