import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { MetricHistory } from '@flotilla/shared/device-metrics/metric-history';
import { MetricSparkline } from './MetricSparkline.js';
import { periodOf, toSeries } from './metric-series.js';

// The four history charts; loaded on demand (MetricHistoryCharts.tsx), not with the page.
export const MetricCharts = ({ history }: { history: MetricHistory }) => {
  const since = Date.parse(history.since);
  const until = Date.parse(history.until);
  return (
    <>
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        {toSeries(history.points).map((series) => (
          <MetricSparkline key={series.name} series={series} since={since} until={until} />
        ))}
      </Box>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
        From {periodOf(since, until)} ago (left) to now (right), on the 0–100 scale of the bars;
        dashed lines mark 60 and 80.
      </Typography>
    </>
  );
};
