import { z } from 'zod';
import { isEventType } from '../events/event-catalogue.js';

export const webhookEventsInput = z
  .array(z.string())
  .min(1, 'Choose at least one event')
  .max(50)
  .refine((events) => events.every(isEventType), 'Unknown event type')
  .transform((events) => [...new Set(events)]);

export const webhookUrlInput = z
  .string()
  .trim()
  .max(2000, 'The URL is too long')
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'The URL must be an http or https address');

export const createWebhookInput = z.object({
  url: webhookUrlInput,
  events: webhookEventsInput,
  // A fleet of the organization; absent: the whole organization.
  fleet: z.number().int().positive().nullable().optional(),
  description: z.string().trim().max(500).optional(),
});

export const updateWebhookInput = z
  .object({
    url: webhookUrlInput.optional(),
    events: webhookEventsInput.optional(),
    description: z.string().trim().max(500).optional(),
    isEnabled: z.boolean().optional(),
  })
  .refine((value) => Object.keys(value).length > 0, 'Nothing to change');

export type CreateWebhookInput = z.infer<typeof createWebhookInput>;
// What a client sends (events as plain strings; the server checks them against the catalogue).
export type CreateWebhookRequest = z.input<typeof createWebhookInput>;
export type UpdateWebhookInput = z.infer<typeof updateWebhookInput>;

export type WebhookEndpoint = {
  id: number;
  organization: number;
  fleet: number | null;
  url: string;
  description: string;
  events: string[];
  isEnabled: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  createdAt: string;
};

export type WebhookDelivery = {
  id: number;
  deliveryId: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'delivering' | 'succeeded' | 'failed';
  attempts: number;
  createdAt: string;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  responseStatus: number | null;
  responseBody: string | null;
  lastError: string | null;
};
