/** The events API: every outbox event of the org for 30 days, as webhook envelopes. */
export { toEnvelope } from './envelope.ts'
export { eventRoutes } from './events.routes.ts'
export { createEventsService, EVENT_RETENTION_DAYS, type EventsService } from './events.service.ts'
