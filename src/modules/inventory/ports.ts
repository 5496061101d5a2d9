import type { BundleComponent, CatalogService } from '../catalog/index.ts'
import type { LocationsService } from '../locations/index.ts'
import type { OrgsService } from '../orgs/index.ts'

/** One unit of a bundle draws down `quantity` of this item (the catalog's shape). */
export type { BundleComponent }

/** What inventory reads of the catalog: names and SKUs, bundles' components, a variant's product. */
export interface CatalogPort {
  products: Pick<CatalogService['products'], 'byIds'>
  bundles: Pick<CatalogService['bundles'], 'componentsOf'>
  /** A 404 AppError when the variant is not the org's. */
  variants: Pick<CatalogService['variants'], 'get'>
}

export type LocationsPort = Pick<LocationsService, 'byIds'>

export type OrgsPort = Pick<OrgsService, 'getOrg'>
