import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import Button from '@mui/material/Button';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { actionSpecs, type MenuActionId } from './device-actions.js';

export type MenuEntry = { id: MenuActionId; block: string | null };

// The Actions menu of the device page and of the table's selection. A blocked action stays
// listed, disabled, with its reason under it (disabled items receive no hover for a tooltip).
export const ActionsMenu = ({
  entries,
  label = 'Actions',
  busy,
  onSelect,
  onOpen,
}: {
  entries: readonly MenuEntry[];
  label?: string;
  busy: boolean;
  onSelect: (id: MenuActionId) => void;
  // Lets the owner ask what only the open menu needs (the move targets).
  onOpen?: () => void;
}) => {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const buttonId = useId();
  return (
    <>
      <Button
        id={buttonId}
        variant="outlined"
        endIcon={<ArrowDropDownIcon />}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        disabled={busy}
        onClick={(event) => {
          setAnchor(event.currentTarget);
          onOpen?.();
        }}
      >
        {busy ? 'Working…' : label}
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { 'aria-labelledby': buttonId } }}
      >
        {entries.map((entry) => (
          <MenuItem
            key={entry.id}
            disabled={entry.block !== null}
            onClick={() => {
              setAnchor(null);
              onSelect(entry.id);
            }}
            sx={entry.id === 'delete' ? { color: 'error.main' } : undefined}
          >
            <ListItemText
              primary={actionSpecs[entry.id].label}
              secondary={entry.block}
              slotProps={{ secondary: { sx: { whiteSpace: 'normal', maxWidth: 280 } } }}
            />
          </MenuItem>
        ))}
      </Menu>
    </>
  );
};
