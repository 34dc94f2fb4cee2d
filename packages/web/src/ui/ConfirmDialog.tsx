import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';

// Confirmation dialogs list at most this many affected items ("and N more").
export const confirmListLimit = 10;

export type ConfirmDialogProps = {
  open: boolean;
  title: string;
  // What will happen; shown above the list and the typing field.
  children?: ReactNode;
  // Affected items (names, devices...): at most ten are listed, then "and N more".
  items?: readonly string[];
  // The number of affected items when `items` holds only the first of them.
  itemCount?: number;
  // When set, confirming needs this exact text typed (pasting is blocked).
  confirmText?: string;
  confirmLabel?: string;
  destructive?: boolean;
  // The form in `children` is not complete yet.
  confirmDisabled?: boolean;
  pending?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onClose: () => void;
};

// "and N more" below the first ten items.
export const visibleItems = (
  items: readonly string[],
  total: number = items.length,
): { shown: readonly string[]; more: number } => {
  const shown = items.slice(0, confirmListLimit);
  return { shown, more: Math.max(0, Math.max(total, items.length) - shown.length) };
};

// The body lives in its own component so the typed text resets every time the dialog opens
// (the dialog unmounts its content when closed).
const ConfirmBody = ({
  title,
  children,
  items = [],
  itemCount,
  confirmText,
  confirmLabel = 'Confirm',
  destructive = false,
  confirmDisabled = false,
  pending = false,
  error,
  onConfirm,
  onClose,
  titleId,
}: Omit<ConfirmDialogProps, 'open'> & { titleId: string }) => {
  const [typed, setTyped] = useState('');
  const fieldId = useId();
  const { shown, more } = visibleItems(items, itemCount);
  const matches = confirmText === undefined || typed === confirmText;
  const confirmOff = !matches || pending || confirmDisabled;
  const confirmRef = useRef<HTMLButtonElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  // A button that turns disabled while focused (a pending or refused confirm) drops the focus out
  // of the dialog in browsers, and Escape then reaches nothing: hand it to the title instead.
  useEffect(() => {
    if (confirmOff && document.activeElement === confirmRef.current) titleRef.current?.focus();
  }, [confirmOff]);
  return (
    <>
      <DialogTitle id={titleId} ref={titleRef} tabIndex={-1} sx={{ outline: 'none' }}>
        {title}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          {typeof children === 'string' ? <Typography>{children}</Typography> : children}
          {shown.length > 0 ? (
            <List dense aria-label="Affected items" sx={{ py: 0 }}>
              {shown.map((item, index) => (
                <ListItem key={`${index}-${item}`} disableGutters sx={{ py: 0 }}>
                  <ListItemText primary={item} />
                </ListItem>
              ))}
              {more > 0 ? (
                <ListItem disableGutters sx={{ py: 0 }}>
                  <ListItemText secondary={`and ${more} more`} />
                </ListItem>
              ) : null}
            </List>
          ) : null}
          {confirmText !== undefined ? (
            <TextField
              id={fieldId}
              autoFocus
              fullWidth
              size="small"
              label={`Type "${confirmText}" to confirm`}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              // The point is to read and type it: no pasting or dropping text in.
              onPaste={(event) => event.preventDefault()}
              onDrop={(event) => event.preventDefault()}
              autoComplete="off"
              slotProps={{ htmlInput: { spellCheck: false, 'data-testid': 'confirm-text' } }}
            />
          ) : null}
          {error ? <Alert severity="error">{error}</Alert> : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button
          variant="contained"
          color={destructive ? 'error' : 'primary'}
          ref={confirmRef}
          onClick={onConfirm}
          disabled={confirmOff}
        >
          {confirmLabel}
        </Button>
      </DialogActions>
    </>
  );
};

// Simple or type-to-confirm confirmation.
export const ConfirmDialog = ({ open, pending = false, onClose, ...rest }: ConfirmDialogProps) => {
  const titleId = useId();
  return (
    <Dialog
      open={open}
      onClose={pending ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
    >
      <ConfirmBody {...rest} pending={pending} onClose={onClose} titleId={titleId} />
    </Dialog>
  );
};
