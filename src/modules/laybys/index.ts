/** Lay-bys: goods reserved against a deposit, paid off over time, then collected or cancelled. */
export { LaybyErrors } from './laybys.errors.ts'
export { laybyRoutes } from './laybys.routes.ts'
export {
  type CancelLaybyBody,
  type CompleteLaybyBody,
  type CreateLaybyBody,
  type Layby,
  LaybySchema,
  type TenderBody,
} from './laybys.schemas.ts'
export { createLaybysService, type LaybyRecord, type LaybysService } from './laybys.service.ts'
