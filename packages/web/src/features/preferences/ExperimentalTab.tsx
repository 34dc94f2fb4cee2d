import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import {
  type HeaderColor,
  headerColors,
  headerColorValues,
  setHeaderColor,
  setNavigationStripes,
  useHeaderColor,
  useNavigationStripes,
} from '../../ui/local-preferences.js';
import { setAppsEnabled, useAppsPreference } from '../../ui/useAppsEnabled.js';
import { useDeploymentTag } from '../../ui/deployment-tag.js';

const colorLabels: Record<HeaderColor, string> = {
  default: 'Default',
  red: 'Red',
  orange: 'Orange',
  green: 'Green',
  teal: 'Teal',
  purple: 'Purple',
  grey: 'Grey',
};

const isHeaderColor = (value: string): value is HeaderColor =>
  headerColors.some((color) => color === value);

const Swatch = ({ color }: { color: HeaderColor }) => (
  <Box
    component="span"
    aria-hidden
    sx={{
      display: 'inline-block',
      width: 14,
      height: 14,
      mr: 1,
      borderRadius: 0.5,
      verticalAlign: 'middle',
      border: 1,
      borderColor: 'divider',
      bgcolor: color === 'default' ? 'primary.main' : headerColorValues[color],
    }}
  />
);

// Preferences → Experimental: options kept in this browser only
// (header colour, navigation stripes, display apps); they apply at once.
export const ExperimentalTab = () => {
  const headerColor = useHeaderColor();
  const stripes = useNavigationStripes();
  const [deploymentTag] = useDeploymentTag();
  const apps = useAppsPreference();
  // A browser that keeps nothing (private mode): the choice lasts until the page is reloaded.
  const [unkept, setUnkept] = useState(false);
  const keep = (kept: boolean): void => {
    if (!kept) setUnkept(true);
  };
  return (
    <Stack spacing={2} sx={{ maxWidth: 420 }}>
      <Typography color="text.secondary">
        These options are kept in this browser only, and apply at once.
      </Typography>
      {unkept ? (
        <Alert severity="warning">
          This browser does not let Flotilla keep settings: your choice lasts until you reload the
          page.
        </Alert>
      ) : null}
      <TextField
        select
        label="Header colour"
        value={headerColor}
        helperText="Default: the usual colour, red for platform administrators."
        onChange={(event) => {
          if (isHeaderColor(event.target.value)) keep(setHeaderColor(event.target.value));
        }}
      >
        {headerColors.map((color) => (
          <MenuItem key={color} value={color}>
            <Swatch color={color} />
            {colorLabels[color]}
          </MenuItem>
        ))}
      </TextField>
      <Box>
        <FormControlLabel
          control={
            <Switch
              checked={stripes}
              onChange={(event) => keep(setNavigationStripes(event.target.checked))}
            />
          }
          label="Show navigation stripes"
        />
        {deploymentTag === null ? null : (
          <Typography variant="body2" color="text.secondary">
            On by default on this {deploymentTag} installation.
          </Typography>
        )}
      </Box>
      <FormControlLabel
        control={
          <Switch checked={apps} onChange={(event) => keep(setAppsEnabled(event.target.checked))} />
        }
        label="Display apps"
      />
    </Stack>
  );
};
