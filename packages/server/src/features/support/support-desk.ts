import type { TicketField } from '@flotilla/shared/support/support-tickets';
import type { Queryable } from '../../infra/db/database.js';
import type { SubmitTicket } from './ticket-form.js';

// Who submits or uploads, as the desk needs them.
export type Requester = { userId: number; username: string; email: string | null };

export type UploadedFile = { fileName: string; contentType: string; bytes: Buffer };

// Zendesk's answers, which the console reads whichever desk serves them.
export type UploadAnswer = {
  upload: {
    token: string;
    attachment: {
      id: number;
      file_name: string;
      content_type: string;
      size: number;
      content_url: string;
    };
  };
};
export type SubmitAnswer = {
  ticket: { id: number; subject: string; status: string; priority: string; created_at: string };
};

// Writes the route's audit record in the transaction of the desk's rows (the built-in desk's);
// a desk that keeps no rows (Zendesk) does not call it, and the route is recorded once answered.
export type RecordChange = (tx: Queryable) => Promise<void>;

// The three calls of the ticket form: the built-in desk (built-in-desk.ts) answers them from
// PostgreSQL, the Zendesk adapter (zendesk-desk.ts) forwards them to a Zendesk instance.
export type SupportDesk = {
  kind: 'built-in' | 'zendesk';
  ticketFields(): Promise<TicketField[]>;
  uploadAttachment(
    organizationId: number,
    by: Requester,
    file: UploadedFile,
    record: RecordChange,
  ): Promise<UploadAnswer>;
  submitTicket(
    organizationId: number,
    by: Requester,
    ticket: SubmitTicket,
    record: RecordChange,
  ): Promise<SubmitAnswer>;
};
