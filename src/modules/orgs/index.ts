/** Merchants: each org owns all of its data. */
export type { OrgRow } from './orgs.repo.ts'
export { createOrgsService, type OrgsService } from './orgs.service.ts'
