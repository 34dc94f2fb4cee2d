import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useFleetTagKeys } from './api.js';
import { type DeviceListParams, tagColumnsOf } from './useDeviceListParams.js';

// The devices table's tag filter ("key" or "key=value", applied on Enter or when the field is
// left) and its tag columns (keys used in the fleet); both live in the URL.
export const TagFilterControls = ({
  fleetId,
  params,
  onParams,
}: {
  fleetId: number;
  params: DeviceListParams;
  onParams: (changes: Partial<DeviceListParams>) => void;
}) => {
  const [text, setText] = useState(params.tag);
  const [seen, setSeen] = useState(params.tag);
  // A URL change this field did not make (back button) replaces the typed text.
  if (seen !== params.tag) {
    setSeen(params.tag);
    setText(params.tag);
  }
  const keys = useFleetTagKeys(fleetId);
  const apply = (): void => {
    if (text.trim() !== params.tag) onParams({ tag: text.trim() });
  };
  return (
    <>
      <TextField
        size="small"
        type="search"
        label="Tag"
        placeholder="key or key=value"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onBlur={apply}
        onKeyDown={(event) => {
          if (event.key === 'Enter') apply();
        }}
        sx={{ minWidth: 180 }}
      />
      <Autocomplete
        multiple
        size="small"
        options={keys.data ?? []}
        value={tagColumnsOf(params)}
        onChange={(_event, chosen) => onParams({ tagColumns: chosen.join(',') })}
        loading={keys.isPending}
        limitTags={2}
        sx={{ minWidth: 220 }}
        renderInput={(props) => <TextField {...props} label="Tag columns" />}
      />
    </>
  );
};
