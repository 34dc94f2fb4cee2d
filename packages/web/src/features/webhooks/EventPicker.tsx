import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import { LoadState } from '../../ui/LoadState.js';
import { useEventTypes } from './api.js';

// The catalogue's event types as checkboxes.
export const EventPicker = ({
  value,
  onChange,
}: {
  value: readonly string[];
  onChange: (events: string[]) => void;
}) => {
  const types = useEventTypes();
  if (types.data === undefined) return <LoadState queries={[types]} what="event types" />;
  return (
    <FormGroup aria-label="Events">
      <FormLabel component="legend">Events</FormLabel>
      {types.data.map(({ type }) => (
        <FormControlLabel
          key={type}
          label={type}
          control={
            <Checkbox
              size="small"
              checked={value.includes(type)}
              onChange={(event) =>
                onChange(
                  event.target.checked
                    ? [...value, type]
                    : value.filter((chosen) => chosen !== type),
                )
              }
            />
          }
        />
      ))}
    </FormGroup>
  );
};
