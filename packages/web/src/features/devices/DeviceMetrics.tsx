import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { MetricHistoryCharts } from '../device-metrics/MetricHistoryCharts.js';
import { megabytes, metricColor, percentOf } from '../../device/device-format.js';
import type { DeviceDetail } from '../../device/device-rows.js';

const MetricBar = ({
  label,
  percent,
  text,
}: {
  label: string;
  // 0–100, or null when the device has not reported it.
  percent: number | null;
  text: string;
}) => (
  <Box>
    <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
      <Typography variant="body2">{label}</Typography>
      <Typography variant="body2" color="text.secondary">
        {percent === null ? 'Not reported' : text}
      </Typography>
    </Stack>
    <LinearProgress
      variant="determinate"
      value={percent ?? 0}
      color={percent === null ? 'inherit' : metricColor(percent)}
      aria-label={label}
      aria-valuetext={percent === null ? 'Not reported' : text}
      sx={{ height: 8, borderRadius: 1, mt: 0.5, opacity: percent === null ? 0.3 : 1 }}
    />
  </Box>
);

const clamp = (value: number | null): number | null =>
  value === null ? null : Math.min(100, Math.max(0, value));

// CPU, temperature, memory and storage, coloured by the shared thresholds (CPU and
// temperature on a 0–100 scale), and their history of the last day.
export const DeviceMetrics = ({ device }: { device: DeviceDetail }) => {
  const memory = percentOf(device.memory_usage, device.memory_total);
  const storage = percentOf(device.storage_usage, device.storage_total);
  return (
    <Card component="section" aria-labelledby="metrics-title">
      <CardContent>
        <Typography id="metrics-title" variant="h3" component="h2" gutterBottom>
          Metrics
        </Typography>
        <Stack spacing={1.5}>
          <MetricBar
            label="CPU"
            percent={clamp(device.cpu_usage)}
            text={`${device.cpu_usage ?? 0}%`}
          />
          <MetricBar
            label="Temperature"
            percent={clamp(device.cpu_temp)}
            text={`${device.cpu_temp ?? 0} °C`}
          />
          <MetricBar
            label="Memory"
            percent={memory}
            text={`${megabytes(device.memory_usage ?? 0)} of ${megabytes(device.memory_total ?? 0)}`}
          />
          <MetricBar
            label="Storage"
            percent={storage}
            text={`${megabytes(device.storage_usage ?? 0)} of ${megabytes(device.storage_total ?? 0)}`}
          />
        </Stack>
        <MetricHistoryCharts uuid={device.uuid} />
      </CardContent>
    </Card>
  );
};
