import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import { useState } from 'react';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { errorText } from '@flotilla/sdk/errors';
import { type AlertRuleRow, useAlertRuleWrites } from './api.js';

const hourMs = 3_600_000;

// An administrator's controls on one rule: enable or disable, silence for an hour (or end the
// silence), delete (confirmed).
export const AlertRuleRowActions = ({
  organizationId,
  rule,
  now,
}: {
  organizationId: number;
  rule: AlertRuleRow;
  now: Date;
}) => {
  const { update, remove } = useAlertRuleWrites(organizationId);
  const [deleting, setDeleting] = useState(false);
  const silenced =
    rule.is_silenced_until__date !== null && new Date(rule.is_silenced_until__date) > now;
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'flex-end' }}>
      <Switch
        checked={rule.is_enabled}
        disabled={update.isPending}
        slotProps={{ input: { 'aria-label': `${rule.name} enabled` } }}
        onChange={(event) =>
          update.mutate({ id: rule.id, change: { is_enabled: event.target.checked } })
        }
      />
      <Button
        size="small"
        disabled={update.isPending || !rule.is_enabled}
        onClick={() =>
          update.mutate({
            id: rule.id,
            change: {
              is_silenced_until__date: silenced
                ? null
                : new Date(now.getTime() + hourMs).toISOString(),
            },
          })
        }
      >
        {silenced ? 'End silence' : 'Silence 1 h'}
      </Button>
      <Button size="small" color="error" onClick={() => setDeleting(true)}>
        Delete
      </Button>
      <ConfirmDialog
        open={deleting}
        title="Delete alert rule"
        items={[rule.name]}
        confirmLabel="Delete"
        destructive
        pending={remove.isPending}
        error={remove.isError ? (errorText(remove.error) ?? 'Could not delete the rule') : null}
        onConfirm={() => remove.mutate(rule.id, { onSuccess: () => setDeleting(false) })}
        onClose={() => setDeleting(false)}
      >
        Its alerts are deleted with it, and nobody is told about them any more.
      </ConfirmDialog>
    </Stack>
  );
};
