import { defaultMetricPoints } from '@flotilla/shared/device-metrics/metric-history';
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { ChartsReferenceLine } from '@mui/x-charts/ChartsReferenceLine';
import { LineChart } from '@mui/x-charts/LineChart';
import { describeSeries, periodOf, withGaps, type Series } from './metric-series.js';

// Colour thresholds (60 and 80 on the 0–100 scale of the bars).
const thresholds = [60, 80] as const;

// Readings further apart than this share of the range are not joined (the console asks for
// defaultMetricPoints buckets: about 2.5 of them).
const maxGapShare = 2.5 / defaultMetricPoints;

// Ticks say the hour only (room for three under a narrow chart); the tooltip says the minute.
const clock = (at: Date, { location }: { location: string }): string =>
  at.toLocaleTimeString(
    undefined,
    location === 'tick' ? { hour: 'numeric' } : { hour: 'numeric', minute: '2-digit' },
  );

const tickLabelStyle = { fontSize: 10 };

// A small line chart of one series over the requested time range, with the range and last
// reading as its accessible name (the chart itself is drawn by MUI X Charts, in SVG).
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
  const points = withGaps(series.values, Math.max(1, until - since) * maxGapShare);
  // A reading with no neighbour on either side draws no line: mark it with a dot instead.
  const lone = (index: number): boolean =>
    points[index - 1]?.value == null && points[index + 1]?.value == null;
  const label = describeSeries(series, periodOf(since, until));
  const unit = (value: number | null): string =>
    value === null ? '' : `${Math.round(value)}${series.unit}`;
  return (
    <Box data-series={series.name}>
      <Typography variant="caption" color="text.secondary">
        {series.label}
      </Typography>
      {/* The library hides its SVG from screen readers: the summary is the chart's name. */}
      <Box role="img" aria-label={label}>
        <LineChart
          height={90}
          margin={{ top: 8, right: 12, bottom: 0, left: 0 }}
          skipAnimation
          hideLegend
          disableKeyboardNavigation
          xAxis={[
            {
              scaleType: 'time',
              data: points.map((entry) => new Date(entry.at)),
              min: new Date(since),
              max: new Date(until),
              valueFormatter: clock,
              tickNumber: 3,
              tickLabelStyle,
              height: 20,
            },
          ]}
          yAxis={[{ min: 0, max: 100, tickInterval: [0, 50, 100], tickLabelStyle, width: 32 }]}
          series={[
            {
              data: points.map((entry) => entry.value),
              label: series.label,
              curve: 'linear',
              color: theme.palette.primary.main,
              valueFormatter: unit,
              showMark: ({ index }) => lone(index),
            },
          ]}
        >
          {thresholds.map((threshold) => (
            <ChartsReferenceLine
              key={threshold}
              y={threshold}
              lineStyle={{
                stroke: threshold === 60 ? theme.palette.warning.main : theme.palette.error.main,
                strokeOpacity: 0.5,
                strokeDasharray: '4 4',
              }}
            />
          ))}
        </LineChart>
      </Box>
    </Box>
  );
};
