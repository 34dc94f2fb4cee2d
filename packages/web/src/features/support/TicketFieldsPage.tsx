import type { AdminTicketField } from '@flotilla/shared/support/ticket-field-admin';
import { ticketFieldTypeLabels } from '@flotilla/shared/support/ticket-field-admin';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { RequirePermission } from '../../api/session/guards.js';
import { isAdmin, useSession } from '../../api/session/useSession.js';
import { LoadState } from '../../ui/LoadState.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useAdminTicketFields } from './api-ticket-fields.js';
import { TicketFieldDialog } from './TicketFieldDialog.js';

const FieldsTable = ({
  fields,
  onEdit,
}: {
  fields: AdminTicketField[];
  onEdit: (field: AdminTicketField) => void;
}) => (
  <Table size="small">
    <TableHead>
      <TableRow>
        <TableCell>Title</TableCell>
        <TableCell>Type</TableCell>
        <TableCell>Required</TableCell>
        <TableCell>On the form</TableCell>
        <TableCell>Position</TableCell>
        <TableCell />
      </TableRow>
    </TableHead>
    <TableBody>
      {fields.map((field) => (
        <TableRow key={field.id}>
          <TableCell>{field.title}</TableCell>
          <TableCell>{ticketFieldTypeLabels[field.type]}</TableCell>
          <TableCell>{field.required ? 'Yes' : 'No'}</TableCell>
          <TableCell>{field.active ? 'Yes' : 'No'}</TableCell>
          <TableCell>{field.position}</TableCell>
          <TableCell align="right">
            <Button size="small" onClick={() => onEdit(field)} aria-label={`Edit ${field.title}`}>
              Edit
            </Button>
          </TableCell>
        </TableRow>
      ))}
    </TableBody>
  </Table>
);

// /admin/support-fields: the fields the ticket form asks for besides subject and description
// (platform administrators).
export const TicketFieldsPage = () => {
  const session = useSession();
  usePageTitle('Ticket fields');
  const fields = useAdminTicketFields();
  const [editing, setEditing] = useState<AdminTicketField | 'new' | null>(null);
  return (
    <RequirePermission allowed={isAdmin(session)} loading={false}>
      <Stack spacing={2}>
        <Link component={RouterLink} to="/admin/support">
          ← Support queue
        </Link>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
          <Typography variant="h1">Ticket fields</Typography>
          <Button variant="contained" onClick={() => setEditing('new')}>
            Add field
          </Button>
        </Stack>
        <Typography color="text.secondary">
          What the ticket form asks for besides the subject and description. A field is hidden from
          the form rather than deleted: tickets keep the values they were sent with.
        </Typography>
        <LoadState queries={[fields]} what="ticket fields" />
        {fields.data?.length === 0 ? (
          <Typography>
            No ticket fields: the form asks for the subject and description only.
          </Typography>
        ) : null}
        {fields.data && fields.data.length > 0 ? (
          <FieldsTable fields={fields.data} onEdit={setEditing} />
        ) : null}
      </Stack>
      {editing === null ? null : (
        <TicketFieldDialog editing={editing} onClose={() => setEditing(null)} />
      )}
    </RequirePermission>
  );
};
