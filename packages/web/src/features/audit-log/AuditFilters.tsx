import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type FormEvent, useState } from 'react';
import type { AuditQuery } from './api.js';

// A user, fleet or device as typed: digits are an id, anything else its name (a username, a
// fleet's name or slug, the start of a device's UUID); the server says what it cannot read.
// Seven or more digits are the start of a UUID (the console shows seven), not a device id.
const idOf = (text: string, maxDigits = 9): number | undefined =>
  /^\d+$/.test(text) && text.length <= maxDigits && Number(text) > 0 ? Number(text) : undefined;

const whoFilter = (fields: { user: string; fleet: string; device: string }): AuditQuery => {
  const filter: AuditQuery = {};
  const user = fields.user.trim();
  const fleet = fields.fleet.trim();
  const device = fields.device.trim();
  if (user !== '') {
    const id = idOf(user);
    if (id === undefined) filter.username = user;
    else filter.user = id;
  }
  if (fleet !== '') {
    const id = idOf(fleet);
    if (id === undefined) filter.fleetName = fleet;
    else filter.fleet = id;
  }
  if (device !== '') {
    const id = idOf(device, 6);
    if (id === undefined) filter.deviceUuid = device;
    else filter.device = id;
  }
  return filter;
};

// A datetime-local value as an ISO instant (the browser's time zone).
const isoOf = (text: string): string | undefined =>
  text === '' || Number.isNaN(new Date(text).getTime()) ? undefined : new Date(text).toISOString();

// The filters of the organization's log: user, fleet and device, resource, and a time range.
export const AuditFilters = ({ onApply }: { onApply: (filter: AuditQuery) => void }) => {
  const [fields, setFields] = useState({
    user: '',
    fleet: '',
    device: '',
    resource: '',
    from: '',
    to: '',
  });
  const field = (name: keyof typeof fields, label: string, type = 'text', placeholder?: string) => (
    <TextField
      size="small"
      label={label}
      type={type}
      placeholder={placeholder}
      value={fields[name]}
      onChange={(event) => setFields({ ...fields, [name]: event.target.value })}
      slotProps={type === 'datetime-local' || placeholder ? { inputLabel: { shrink: true } } : {}}
      sx={{ minWidth: 140 }}
    />
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const filter = whoFilter(fields);
    const from = isoOf(fields.from);
    const to = isoOf(fields.to);
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
      {field('user', 'User', 'text', 'Username or id')}
      {field('fleet', 'Fleet', 'text', 'Name, slug or id')}
      {field('device', 'Device', 'text', 'UUID (its start) or id')}
      {field('resource', 'Resource')}
      {field('from', 'From', 'datetime-local')}
      {field('to', 'To', 'datetime-local')}
      <Button type="submit" variant="outlined">
        Apply
      </Button>
    </Stack>
  );
};
