/** Lay-bys: goods reserved against a deposit, paid off over time, then collected or cancelled. */
export { stalledCancellations } from './laybys.jobs.ts'
export { laybyRoutes } from './laybys.routes.ts'
export { type CompleteLaybyBody, type Layby, LaybySchema } from './laybys.schemas.ts'
export { createLaybysService, type LaybysService } from './laybys.service.ts'
