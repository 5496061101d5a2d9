/** Locations: the stores and stock places of an org. */
export { locationRoutes } from './locations.routes.ts'
export { createLocationsService, type LocationsService } from './locations.service.ts'
