import { LRUCache } from 'lru-cache'
import type { RequestContext } from '../http/context.ts'

/**
 * Values that only catalog and tax writes change, kept per process under the org's catalog version read when the
 * request was admitted (ctx.catalogVersion): every such write moves the version on, so an entry is never used
 * after a change to what it holds. Nothing is kept when the version is null (docs/catalog-cache.md).
 */
export class KeptUnderCatalogVersion<V extends object> {
  private readonly entries: LRUCache<string, V>

  constructor(maxEntries: number) {
    this.entries = new LRUCache({ max: maxEntries })
  }

  /** The entry's key, or null when nothing may be kept; `part` tells one org's values apart. */
  keyOf(ctx: RequestContext, part = ''): string | null {
    return ctx.catalogVersion === null ? null : `${ctx.orgId}|${ctx.catalogVersion}|${part}`
  }

  get(key: string | null): V | undefined {
    return key === null ? undefined : this.entries.get(key)
  }

  set(key: string | null, value: V): void {
    if (key !== null) this.entries.set(key, value)
  }

  /** The kept value, or else what `load` gives, which is then kept. */
  async through(ctx: RequestContext, load: () => Promise<V>): Promise<V> {
    const key = this.keyOf(ctx)
    const kept = this.get(key)
    if (kept) return kept
    const loaded = await load()
    this.set(key, loaded)
    return loaded
  }
}
