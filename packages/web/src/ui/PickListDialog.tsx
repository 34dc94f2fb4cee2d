import { errorText } from '@flotilla/sdk/errors';
import { roleLabel } from '@flotilla/shared/permissions/role-labels';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';

// Entity lists in dialogs scroll within 300 px.
export const dialogListMaxHeight = 300;

export type PickItem = { id: number; label: string; secondary?: string };

// "Add to team", "Add member to team", "Add fleet to team", "Add team to fleet": pick one or more
// entities from a list, and a role when the link carries one.
export const PickListDialog = ({
  open,
  title,
  items,
  emptyText,
  roles,
  defaultRole,
  submitLabel,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: string;
  items: readonly PickItem[];
  emptyText: string;
  roles?: readonly string[];
  defaultRole?: string;
  submitLabel: string;
  onSubmit: (ids: readonly number[], role: string | undefined) => Promise<unknown>;
  onClose: () => void;
}) => {
  const [chosen, setChosen] = useState<readonly number[]>([]);
  const [filter, setFilter] = useState('');
  const [role, setRole] = useState(defaultRole);
  const save = useMutation({
    meta: { inlineError: true },
    mutationFn: () => onSubmit(chosen, role),
    onSuccess: () => close(),
  });
  const close = (): void => {
    setChosen([]);
    setFilter('');
    setRole(defaultRole);
    save.reset();
    onClose();
  };
  const shown = items.filter((item) =>
    item.label.toLowerCase().includes(filter.trim().toLowerCase()),
  );
  const toggle = (id: number): void =>
    setChosen((current) =>
      current.includes(id) ? current.filter((other) => other !== id) : [...current, id],
    );
  return (
    <Dialog open={open} onClose={save.isPending ? undefined : close} fullWidth maxWidth="sm">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {items.length > 8 ? (
            <TextField
              size="small"
              label="Filter"
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
            />
          ) : null}
          {items.length === 0 ? (
            <Typography color="text.secondary">{emptyText}</Typography>
          ) : (
            <List
              dense
              aria-label={title}
              sx={{
                maxHeight: dialogListMaxHeight,
                overflowY: 'auto',
                border: 1,
                borderColor: 'divider',
                borderRadius: 1,
              }}
            >
              {shown.map((item) => (
                <ListItemButton
                  key={item.id}
                  onClick={() => toggle(item.id)}
                  role="option"
                  aria-selected={chosen.includes(item.id)}
                >
                  <ListItemIcon sx={{ minWidth: 36 }}>
                    <Checkbox
                      edge="start"
                      tabIndex={-1}
                      disableRipple
                      checked={chosen.includes(item.id)}
                      slotProps={{ input: { 'aria-label': item.label } }}
                    />
                  </ListItemIcon>
                  <ListItemText primary={item.label} secondary={item.secondary} />
                </ListItemButton>
              ))}
            </List>
          )}
          {roles && role !== undefined ? (
            <TextField
              select
              label="Role"
              value={role}
              onChange={(event) => setRole(event.target.value)}
            >
              {roles.map((name) => (
                <MenuItem key={name} value={name}>
                  {roleLabel(name)}
                </MenuItem>
              ))}
            </TextField>
          ) : null}
          {save.isError ? (
            <Alert severity="error">{errorText(save.error) ?? 'Could not save'}</Alert>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={save.isPending}>
          Cancel
        </Button>
        <Button
          variant="contained"
          disabled={chosen.length === 0 || save.isPending}
          onClick={() => save.mutate()}
        >
          {submitLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
