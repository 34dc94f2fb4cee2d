import { errorText } from '@flotilla/sdk/errors';
import { emailProblem } from '@flotilla/shared/auth/credentials';
import { invitationMessageMaxLength } from '@flotilla/shared/constants/limits';
import { roleLabel } from '@flotilla/shared/permissions/role-labels';
import { usernameProblem } from '@flotilla/shared/users/username';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';

export type Invitation = { invitee: string; role: string; message: string };

// What the invitee field holds: an e-mail (an invitation by mail) or a username (an account).
export const inviteeKind = (value: string): 'email' | 'username' | null => {
  const trimmed = value.trim();
  if (trimmed.includes('@')) return emailProblem(trimmed) ? null : 'email';
  return usernameProblem(trimmed) ? null : 'username';
};

// "Invite member" / "Add member": the invitee is trimmed and
// must be a valid e-mail or username; a role among `roles`; an optional message.
export const InviteDialog = ({
  open,
  title,
  roles,
  defaultRole,
  submitLabel,
  help,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: string;
  roles: readonly string[];
  defaultRole: string;
  submitLabel: string;
  help?: ReactNode;
  onSubmit: (invitation: Invitation) => Promise<unknown>;
  onClose: () => void;
}) => {
  const [invitee, setInvitee] = useState('');
  const [role, setRole] = useState(defaultRole);
  const [message, setMessage] = useState('');
  const [touched, setTouched] = useState(false);
  const send = useMutation({
    meta: { inlineError: true },
    mutationFn: () => onSubmit({ invitee: invitee.trim(), role, message: message.trim() }),
    onSuccess: () => close(),
  });
  const close = (): void => {
    setInvitee('');
    setRole(defaultRole);
    setMessage('');
    setTouched(false);
    send.reset();
    onClose();
  };
  const kind = inviteeKind(invitee);
  const problem =
    invitee.trim() === ''
      ? 'Enter an e-mail address or a username'
      : kind === null
        ? invitee.includes('@')
          ? 'Invalid e-mail address'
          : 'Enter an e-mail address or a username'
        : undefined;
  return (
    <Dialog open={open} onClose={send.isPending ? undefined : close} fullWidth maxWidth="sm">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <Stack
          component="form"
          id="invite-form"
          spacing={2}
          sx={{ pt: 1 }}
          onSubmit={(event) => {
            event.preventDefault();
            setTouched(true);
            if (!problem) send.mutate();
          }}
        >
          {help}
          <TextField
            label="E-mail or username"
            value={invitee}
            autoFocus
            required
            onChange={(event) => {
              send.reset();
              setInvitee(event.target.value);
            }}
            error={touched && Boolean(problem)}
            helperText={touched ? problem : undefined}
          />
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
          <TextField
            label="Message (optional)"
            value={message}
            multiline
            minRows={2}
            onChange={(event) => setMessage(event.target.value)}
            // The server takes no more; the mail quotes it as the inviter's words.
            helperText={`${message.length}/${invitationMessageMaxLength}, quoted in the mail as yours`}
            slotProps={{ htmlInput: { maxLength: invitationMessageMaxLength } }}
          />
          {send.isError ? (
            <Alert severity="error">
              {errorText(send.error) ?? 'Could not send the invitation'}
            </Alert>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={send.isPending}>
          Cancel
        </Button>
        <Button type="submit" form="invite-form" variant="contained" disabled={send.isPending}>
          {send.isPending ? 'Sending…' : submitLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
