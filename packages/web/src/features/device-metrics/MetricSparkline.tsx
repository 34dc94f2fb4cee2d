import { defaultMetricPoints } from '@flotilla/shared/device-metrics/metric-history';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { describeSeries, periodOf, segments, type Series } from './metric-series.js';

// The charts' own units; the SVG scales to its column keeping this aspect (round dots).
const width = 120;
const height = 40;

// Lines of the colour thresholds of seed 001 section 9 (60 and 80 on the 0–100 scale).
const thresholds = [60, 80];

// Readings further apart than this share of the range are not joined (the console asks for
// defaultMetricPoints buckets: about 2.5 of them).
const maxGapShare = 2.5 / defaultMetricPoints;

const y = (value: number): number => height - (value / 100) * height;

// A small line chart of one series over its time range, plain SVG (no chart library to load),
// with the range and last reading as its accessible name.
export const MetricSparkline = ({
  series,
  since,
  until,
}: {
  series: Series;
  since: number;
  until: number;
}) => {
  const theme = useTheme();
  const span = Math.max(1, until - since);
  const x = (at: number): number => ((at - since) / span) * width;
  const point = (entry: { at: number; value: number }): string =>
    `${x(entry.at).toFixed(1)},${y(entry.value).toFixed(1)}`;
  // A lone reading is a dot: a zero-length line with round caps.
  const path = segments(series.values, span * maxGapShare)
    .map((run) =>
      run.length === 1 && run[0]
        ? `M${point(run[0])} l0,0`
        : run.map((entry, index) => `${index === 0 ? 'M' : 'L'}${point(entry)}`).join(' '),
    )
    .join(' ');
  const label = describeSeries(series, periodOf(since, until));
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {series.label}
      </Typography>
      <svg
        role="img"
        aria-label={label}
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        data-series={series.name}
        style={{ display: 'block', overflow: 'visible' }}
      >
        <title>{label}</title>
        {thresholds.map((threshold) => (
          <line
            key={threshold}
            x1={0}
            x2={width}
            y1={y(threshold)}
            y2={y(threshold)}
            stroke={threshold === 60 ? theme.palette.warning.main : theme.palette.error.main}
            strokeOpacity={0.35}
            strokeDasharray="4 4"
            vectorEffect="non-scaling-stroke"
          />
        ))}
        <line
          x1={0}
          x2={width}
          y1={height}
          y2={height}
          stroke={theme.palette.divider}
          vectorEffect="non-scaling-stroke"
        />
        <path
          d={path}
          fill="none"
          stroke={theme.palette.primary.main}
          strokeWidth={2}
          strokeLinecap="round"
          strokeLinejoin="round"
          vectorEffect="non-scaling-stroke"
        />
      </svg>
    </Box>
  );
};
