import { en, type Strings } from './en.ts'

/** The back office's language: English today; another is a file like en.ts, chosen here. */
export const strings: Strings = en
