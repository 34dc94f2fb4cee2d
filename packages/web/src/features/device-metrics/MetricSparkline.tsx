import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { describeSeries, periodOf, type Series } from './metric-series.js';

// The charts' own units; the SVG scales to its column keeping this aspect (round dots).
const width = 120;
const height = 40;

// Lines of the colour thresholds of seed 001 section 9 (60 and 80 on the 0–100 scale).
const thresholds = [60, 80];

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
  const path = series.values
    .map(
      (entry, index) =>
        `${index === 0 ? 'M' : 'L'}${x(entry.at).toFixed(1)},${y(entry.value).toFixed(1)}`,
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
        {series.values.length === 1 && series.values[0] ? (
          <circle
            cx={x(series.values[0].at)}
            cy={y(series.values[0].value)}
            r={1.5}
            fill={theme.palette.primary.main}
          />
        ) : (
          <path
            d={path}
            fill="none"
            stroke={theme.palette.primary.main}
            strokeWidth={1.5}
            vectorEffect="non-scaling-stroke"
          />
        )}
      </svg>
    </Box>
  );
};
