import Alert from '@mui/material/Alert';
import { plural } from '../../device/device-format.js';

// "N selected devices will be skipped: reason (count); …" below a batch action's form.
export const SkippedNotice = ({ skipped }: { skipped: readonly { reason: string }[] }) => {
  if (skipped.length === 0) return null;
  const counts = new Map<string, number>();
  for (const { reason } of skipped) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  const reasons = [...counts.entries()].map(([reason, count]) => `${reason} (${count})`);
  return (
    <Alert severity="info">
      {plural(skipped.length, 'selected device')} will be skipped: {reasons.join('; ')}.
    </Alert>
  );
};
