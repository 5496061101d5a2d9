import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fromRoot } from '../../platform/paths.ts'

/**
 * A receipt's words come from one catalog per language, a JSON file in ./strings named by its BCP 47 tag
 * (`en.json`, `fr.json`): a receipt in another language is one more file. A key a file lacks falls back to English.
 */
const DIR = fromRoot('src', 'modules', 'receipts', 'strings')
const DEFAULT_LANGUAGE = 'en'

const catalogs = new Map<string, Record<string, string>>(
  readdirSync(DIR)
    .filter((file) => file.endsWith('.json'))
    .map((file) => [file.slice(0, -'.json'.length), JSON.parse(readFileSync(join(DIR, file), 'utf8'))]),
)

const english = catalogs.get(DEFAULT_LANGUAGE)!

/** The languages receipts can be printed in. */
export const RECEIPT_LANGUAGES = [...catalogs.keys()].sort()

export type Translate = (key: string, values?: Record<string, string | number>) => string

/** The catalog of `language` (English when absent), with `{name}` placeholders filled in. */
export function stringsFor(language: string | undefined): { language: string; t: Translate } {
  const chosen = language && catalogs.has(language) ? language : DEFAULT_LANGUAGE
  const catalog = catalogs.get(chosen)!
  const t: Translate = (key, values = {}) =>
    (catalog[key] ?? english[key] ?? key).replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''))
  return { language: chosen, t }
}
