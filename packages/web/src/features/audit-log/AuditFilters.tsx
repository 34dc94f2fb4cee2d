import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type FormEvent, useState } from 'react';
import type { AuditQuery } from './api.js';

const idOf = (text: string): number | undefined => {
  const value = Number(text);
  return text.trim() !== '' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
};

// A datetime-local value as an ISO instant (the browser's time zone).
const isoOf = (text: string): string | undefined =>
  text === '' || Number.isNaN(new Date(text).getTime()) ? undefined : new Date(text).toISOString();

// The filters of the organization's log: user, fleet and device ids, resource, and a time range.
export const AuditFilters = ({ onApply }: { onApply: (filter: AuditQuery) => void }) => {
  const [fields, setFields] = useState({
    user: '',
    fleet: '',
    device: '',
    resource: '',
    from: '',
    to: '',
  });
  const field = (name: keyof typeof fields, label: string, type = 'text') => (
    <TextField
      size="small"
      label={label}
      type={type}
      value={fields[name]}
      onChange={(event) => setFields({ ...fields, [name]: event.target.value })}
      slotProps={type === 'datetime-local' ? { inputLabel: { shrink: true } } : {}}
      sx={{ minWidth: 140 }}
    />
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const filter: AuditQuery = {};
    const user = idOf(fields.user);
    const fleet = idOf(fields.fleet);
    const device = idOf(fields.device);
    const from = isoOf(fields.from);
    const to = isoOf(fields.to);
    if (user !== undefined) filter.user = user;
    if (fleet !== undefined) filter.fleet = fleet;
    if (device !== undefined) filter.device = device;
    if (fields.resource.trim() !== '') filter.resource = fields.resource.trim();
    if (from !== undefined) filter.from = from;
    if (to !== undefined) filter.to = to;
    onApply(filter);
  };
  return (
    <Stack
      component="form"
      aria-label="Audit log filters"
      direction="row"
      onSubmit={submit}
      sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center' }}
    >
      {field('user', 'User id')}
      {field('fleet', 'Fleet id')}
      {field('device', 'Device id')}
      {field('resource', 'Resource')}
      {field('from', 'From', 'datetime-local')}
      {field('to', 'To', 'datetime-local')}
      <Button type="submit" variant="outlined">
        Apply
      </Button>
    </Stack>
  );
};
