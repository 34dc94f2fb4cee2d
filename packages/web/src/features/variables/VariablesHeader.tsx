import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { ServiceFilter, type ServiceFilterValue } from './ServiceFilter.js';
import type { ServiceOption } from './variable-model.js';
import type { VariablesScreenSpec } from './variables-screens.js';

// Adding a variable: beside the heading on environment screens, above the custom configuration
// table on configuration screens.
export const AddVariableButton = ({
  spec,
  disabled,
  onClick,
}: {
  spec: VariablesScreenSpec;
  disabled: boolean;
  onClick: () => void;
}) => (
  <Button
    variant={spec.services ? 'contained' : 'outlined'}
    startIcon={<AddIcon />}
    disabled={disabled}
    onClick={onClick}
  >
    {spec.addLabel}
  </Button>
);

// The screen's heading; environment screens add the service filter and the add button beside it.
export const VariablesHeader = ({
  spec,
  services,
  filter,
  onFilter,
  addButton,
}: {
  spec: VariablesScreenSpec;
  services: readonly ServiceOption[];
  filter: ServiceFilterValue;
  onFilter: (value: ServiceFilterValue) => void;
  addButton: ReactNode;
}) =>
  spec.services ? (
    <Stack
      direction="row"
      spacing={2}
      sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', rowGap: 1 }}
    >
      <Typography variant="h2">{spec.heading}</Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <ServiceFilter services={services} value={filter} onChange={onFilter} />
        {addButton}
      </Stack>
    </Stack>
  ) : (
    <Typography variant="h2">{spec.heading}</Typography>
  );
