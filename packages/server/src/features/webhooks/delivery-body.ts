import type { EventEnvelope } from '@flotilla/shared/events/event-catalogue';
import type { ClaimedDelivery } from './delivery-claim.js';

// The body of a delivery: the event's envelope (docs/EVENTS.md), the same on every attempt.
export const envelopeOf = (delivery: ClaimedDelivery): EventEnvelope => ({
  id: delivery.eventUuid,
  type: delivery.type,
  version: delivery.version,
  occurredAt: delivery.occurredAt.toISOString(),
  organization: delivery.organization,
  fleet: delivery.fleet,
  device: delivery.device,
  data: delivery.data,
});

export const deliveryBody = (delivery: ClaimedDelivery): string =>
  JSON.stringify(envelopeOf(delivery));
