import type { ConfigVarProperty, ConfigVarSchema } from '@flotilla/shared/variables/config-vars';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { ConfigValueControl, labelsItsState } from './ConfigValueControl.js';
import { StagedMark, stagedRowSx } from './StagedMark.js';
import { allServices } from './variable-model.js';
import { effectiveValue, rowKey, type VariableRow } from './variable-rows.js';
import { ValueText } from './VariablesTable.js';

// The row of a schema property, whether or not anything sets it.
export const schemaRow = (rows: ReadonlyMap<string, VariableRow>, name: string): VariableRow =>
  rows.get(name) ?? {
    key: rowKey(allServices, name),
    name,
    serviceId: allServices,
    inherited: null,
    own: null,
    value: null,
    staged: undefined,
  };

// Configuration rows outside the schema: the custom configuration table.
export const customRows = (rows: readonly VariableRow[], schema: ConfigVarSchema): VariableRow[] =>
  rows.filter((row) => !(row.name in schema.properties));

const defaultText = (property: ConfigVarProperty): string | null =>
  property.default === undefined ? null : String(property.default);

export type ConfigTableProps = {
  schema: ConfigVarSchema;
  rows: ReadonlyMap<string, VariableRow>;
  // The fleet value column of device pages.
  inheritedLabel?: string;
  denied: (row: VariableRow) => string | null;
  onStage: (row: VariableRow, value: string) => void;
  onEdit: (row: VariableRow, property: ConfigVarProperty) => void;
  onUndo: (row: VariableRow) => void;
  // Removing this level's value (fleet: back to the default; device: back to the fleet's).
  remove: (row: VariableRow) => ReactNode;
  extraActions?: (row: VariableRow) => ReactNode;
  // A setting the device's agent (or none of the fleet's devices' agents) applies, from the
  // profiles they reported.
  unused?: (name: string) => boolean;
  unusedBy?: 'device' | 'fleet';
};

// The configuration table driven by the /config/vars schema of a device type: each setting with its description, its value or the default
// when unset, and the control its type calls for.
export const ConfigTable = ({
  schema,
  rows,
  inheritedLabel,
  denied,
  onStage,
  onEdit,
  onUndo,
  remove,
  extraActions,
  unused = () => false,
  unusedBy = 'device',
}: ConfigTableProps) => (
  <TableContainer component={Paper} variant="outlined">
    <Table size="small" aria-label="Configuration">
      <TableHead>
        <TableRow>
          <TableCell>Setting</TableCell>
          {inheritedLabel ? <TableCell>{inheritedLabel}</TableCell> : null}
          <TableCell>Value</TableCell>
          <TableCell align="right" aria-label="Actions" />
        </TableRow>
      </TableHead>
      <TableBody>
        {Object.entries(schema.properties)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name, property]) => {
            const row = schemaRow(rows, name);
            const effective = effectiveValue(row);
            return (
              <TableRow key={name} sx={stagedRowSx(row.staged)} data-staged={row.staged}>
                <TableCell sx={{ maxWidth: 360 }}>
                  <Typography
                    variant="body2"
                    sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere', fontWeight: 500 }}
                  >
                    {name}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {property.description}
                  </Typography>
                  {unused(name) ? (
                    <Chip
                      size="small"
                      variant="outlined"
                      label={
                        unusedBy === 'device'
                          ? "Not used by this device's agent"
                          : "Not used by this fleet's devices"
                      }
                      title={
                        unusedBy === 'device'
                          ? "This device's agent reported the settings it applies; this is not one of them"
                          : 'Every device of this fleet reported the settings its agent applies; none applies this one'
                      }
                      sx={{ mt: 0.5, mr: 1 }}
                    />
                  ) : null}
                  {property.will_reboot || property.warning ? (
                    <Stack direction="row" spacing={1} sx={{ mt: 0.5, flexWrap: 'wrap' }}>
                      {property.will_reboot ? (
                        <Chip
                          size="small"
                          color="warning"
                          variant="outlined"
                          label="Reboots the device"
                        />
                      ) : null}
                      {property.warning ? (
                        <Typography variant="caption" color="warning.main">
                          {property.warning}
                        </Typography>
                      ) : null}
                    </Stack>
                  ) : null}
                </TableCell>
                {inheritedLabel ? (
                  <TableCell sx={{ maxWidth: 240 }}>
                    <ValueText value={row.inherited} muted />
                  </TableCell>
                ) : null}
                <TableCell sx={{ maxWidth: 320 }}>
                  <ConfigValueControl
                    name={name}
                    property={property}
                    effective={effective}
                    defaultValue={defaultText(property)}
                    denied={row.staged === 'deleted' ? 'Undo the deletion first' : denied(row)}
                    onStage={(value) => onStage(row, value)}
                    onEdit={() => onEdit(row, property)}
                  />
                  {effective === null &&
                  property.default !== undefined &&
                  !labelsItsState(property) ? (
                    <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                      Default
                    </Typography>
                  ) : row.value === null && row.inherited !== null ? (
                    <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
                      From the fleet
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <Stack
                    direction="row"
                    spacing={0.5}
                    sx={{ justifyContent: 'flex-end', alignItems: 'center' }}
                  >
                    <StagedMark kind={row.staged} name={name} onUndo={() => onUndo(row)} />
                    {extraActions?.(row)}
                    {row.value !== null && row.staged !== 'deleted' ? remove(row) : null}
                  </Stack>
                </TableCell>
              </TableRow>
            );
          })}
      </TableBody>
    </Table>
  </TableContainer>
);
