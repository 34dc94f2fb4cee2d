import type { TicketFieldType } from './support-tickets.js';

// The ticket form's fields as platform administrators edit them (GET/POST/PATCH
// /admin/v1/support/ticket-fields). A field is never deleted: tickets keep the values they were
// sent with, so an unwanted field is deactivated (it leaves the form).
export const ticketFieldTypes = [
  'text',
  'textarea',
  'tagger',
  'checkbox',
] as const satisfies readonly TicketFieldType[];

export const ticketFieldTypeLabels: Record<TicketFieldType, string> = {
  text: 'Text',
  textarea: 'Long text',
  tagger: 'Drop-down',
  checkbox: 'Checkbox',
};

export type TicketFieldOption = { name: string; value: string };

export type AdminTicketField = {
  id: number;
  type: TicketFieldType;
  title: string;
  description: string;
  required: boolean;
  active: boolean;
  position: number;
  options: TicketFieldOption[];
};

export type TicketFieldInput = Omit<AdminTicketField, 'id'>;

export const ticketFieldTitleMaxLength = 200;
export const ticketFieldDescriptionMaxLength = 1000;
export const ticketFieldOptionsMax = 100;

export const ticketFieldMessages = {
  titleRequired: 'Title is required',
  optionsRequired: 'A drop-down needs at least one option',
  optionIncomplete: 'Each option needs a label and a value',
  optionsRepeated: 'Each option needs its own value',
  optionsOnlyForDropDown: 'Only a drop-down has options',
} as const;

// What is wrong with a field as typed, in the words the server answers; undefined when nothing.
export const ticketFieldProblem = (field: TicketFieldInput): string | undefined => {
  if (field.title.trim() === '') return ticketFieldMessages.titleRequired;
  if (field.type !== 'tagger') {
    return field.options.length > 0 ? ticketFieldMessages.optionsOnlyForDropDown : undefined;
  }
  if (field.options.length === 0) return ticketFieldMessages.optionsRequired;
  if (field.options.some((option) => option.name.trim() === '' || option.value.trim() === '')) {
    return ticketFieldMessages.optionIncomplete;
  }
  const values = field.options.map((option) => option.value.trim());
  return new Set(values).size === values.length ? undefined : ticketFieldMessages.optionsRepeated;
};
