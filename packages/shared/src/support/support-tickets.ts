// The help desk's wire shapes and business constants, shared by the server and the console.

export const ticketStatuses = ['new', 'open', 'pending', 'solved', 'closed'] as const;
export type TicketStatus = (typeof ticketStatuses)[number];

export const ticketPriorities = ['low', 'normal', 'high', 'urgent'] as const;
export type TicketPriority = (typeof ticketPriorities)[number];

// Each attachment is at most 5 MB.
export const supportAttachmentLimitMb = 5;
export const supportAttachmentMaxBytes = supportAttachmentLimitMb * 1024 * 1024;
export const attachmentTooLargeMessage = `Attachments are limited to ${supportAttachmentLimitMb} MB each`;

// What an attachment may be: screenshots, logs, archives and documents, never markup or scripts a
// browser would run when the file is opened from our origin.
export const supportAttachmentTypes = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'text/plain',
  'text/csv',
  'application/json',
  'application/pdf',
  'application/zip',
  'application/gzip',
  'application/x-gzip',
  'application/x-tar',
  'application/octet-stream',
] as const;

export const isSupportAttachmentType = (value: string): boolean =>
  supportAttachmentTypes.some((type) => type === value.split(';')[0]?.trim().toLowerCase());

export const subjectMaxLength = 200;
export const messageMaxLength = 20_000;
export const ccMaxAddresses = 20;

// The cc field as typed: a comma-separated list, spaces removed, empty entries dropped.
export const parseCcList = (value: string): string[] =>
  value
    .replace(/\s+/g, '')
    .split(',')
    .filter((entry) => entry !== '');

const emailPattern = /^[^@\s,]+@[^@\s,]+\.[^@\s,]+$/;
export const isCcAddress = (value: string): boolean => emailPattern.test(value);

// A dynamic field of the ticket form, defined per installation (Zendesk's ticket field shape).
export type TicketFieldType = 'text' | 'textarea' | 'tagger' | 'checkbox';
export type TicketField = {
  id: number;
  type: TicketFieldType;
  title: string;
  description: string;
  required: boolean;
  active: boolean;
  custom_field_options: { name: string; value: string }[];
};

export type TicketAttachment = {
  id: number;
  file_name: string;
  content_type: string;
  size: number;
  content_url: string;
};

export type TicketMessage = {
  id: number;
  author: string;
  fromAgent: boolean;
  body: string;
  createdAt: string;
  attachments: TicketAttachment[];
};

export type TicketSummary = {
  id: number;
  organization: { id: number; name: string };
  subject: string;
  status: TicketStatus;
  priority: TicketPriority;
  requester: string;
  assignee: { id: number; username: string } | null;
  createdAt: string;
  updatedAt: string;
};

export type TicketDetail = TicketSummary & {
  cc: string[];
  customFields: { id: number; title: string; value: string | boolean }[];
  messages: TicketMessage[];
};

export type TicketPage = { total: number; tickets: TicketSummary[] };

// Who may be assigned: support agents and platform administrators.
export type SupportAgent = { id: number; username: string };

export const statusLabels: Record<TicketStatus, string> = {
  new: 'New',
  open: 'Open',
  pending: 'Awaiting your reply',
  solved: 'Solved',
  closed: 'Closed',
};

export const ticketQueuePageSize = 25;
