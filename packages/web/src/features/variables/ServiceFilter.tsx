import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { allServices, type ServiceOption } from './variable-model.js';

export type ServiceFilterValue = number | 'any';

// Which service's variables a table shows: any, the ones for all services, or one service's.
export const ServiceFilter = ({
  services,
  value,
  onChange,
}: {
  services: readonly ServiceOption[];
  value: ServiceFilterValue;
  onChange: (value: ServiceFilterValue) => void;
}) => (
  <TextField
    select
    size="small"
    label="Service"
    value={value}
    onChange={(event) =>
      onChange(event.target.value === 'any' ? 'any' : Number(event.target.value))
    }
    sx={{ minWidth: 180 }}
  >
    <MenuItem value="any">Any service</MenuItem>
    <MenuItem value={allServices}>All services</MenuItem>
    {services.map((service) => (
      <MenuItem key={service.id} value={service.id}>
        {service.name}
      </MenuItem>
    ))}
  </TextField>
);

export const filterByService = <T extends { serviceId: number }>(
  rows: readonly T[],
  filter: ServiceFilterValue,
): T[] => (filter === 'any' ? [...rows] : rows.filter((row) => row.serviceId === filter));
