import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import { LoadState } from '../../ui/LoadState.js';
import { useOverrides, useRemoveOverride } from './api-overrides.js';
import type { Override, OverrideTarget } from './variable-model.js';
import { ValueText } from './VariablesTable.js';

export type OverridesDialogProps = {
  fleetId: number;
  target: OverrideTarget;
  // What the fleet sets, shown above the devices' own values.
  fleetValue: string | null;
  // Null when the user may delete overrides, else why not.
  deleteDenied: (resource: Override['resource']) => string | null;
  onClose: () => void;
};

// Which devices override one fleet variable and with which value, each override deletable on the spot (the device then gets the fleet value).
const OverridesBody = ({
  fleetId,
  target,
  fleetValue,
  deleteDenied,
  onClose,
  titleId,
}: OverridesDialogProps & { titleId: string }) => {
  const overrides = useOverrides(fleetId, target);
  const remove = useRemoveOverride();
  const section = target.kind === 'config' ? 'config' : 'envvars';
  const rows = overrides.data ?? [];
  return (
    <>
      <DialogTitle id={titleId}>Overrides of {target.name}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          The fleet sets {fleetValue === null ? 'no value' : <code>{fleetValue.slice(0, 80)}</code>}
          . These devices use their own value instead.
        </DialogContentText>
        <LoadState queries={[overrides]} what="overrides" />
        {remove.isError ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {errorText(remove.error) ?? 'Could not delete the override'}
          </Alert>
        ) : null}
        {overrides.isSuccess ? (
          <Table size="small" aria-label={`Devices overriding ${target.name}`}>
            <TableHead>
              <TableRow>
                <TableCell>Device</TableCell>
                <TableCell>Value</TableCell>
                <TableCell align="right" aria-label="Actions" />
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={3}>No device overrides this variable.</TableCell>
                </TableRow>
              ) : null}
              {rows.map((override) => {
                const denied = deleteDenied(override.resource);
                return (
                  <TableRow key={`${override.resource}:${override.id}`}>
                    <TableCell>
                      <Link
                        component={RouterLink}
                        to={`/devices/${override.device.uuid}/${section}`}
                        onClick={onClose}
                      >
                        {override.device.name}
                      </Link>
                    </TableCell>
                    <TableCell sx={{ maxWidth: 280 }}>
                      <ValueText value={override.value} />
                    </TableCell>
                    <TableCell align="right">
                      <Tooltip title={denied ?? 'Delete this override'}>
                        <span>
                          <IconButton
                            size="small"
                            aria-label={`Delete the override of ${override.device.name}`}
                            disabled={denied !== null || remove.isPending}
                            onClick={() => remove.mutate(override)}
                          >
                            <DeleteIcon fontSize="small" />
                          </IconButton>
                        </span>
                      </Tooltip>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </>
  );
};

export const OverridesDialog = (props: OverridesDialogProps) => {
  const titleId = useId();
  return (
    <Dialog open onClose={props.onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <OverridesBody {...props} titleId={titleId} />
    </Dialog>
  );
};
