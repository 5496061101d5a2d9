/** Customer profiles: upsert by e-mail or phone, search, preferences, purchase history. */
export { customerRoutes } from './customers.routes.ts'
export { CustomerSchema } from './customers.schemas.ts'
export {
  type CustomersService,
  createCustomersService,
} from './customers.service.ts'
