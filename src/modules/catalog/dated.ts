/**
 * A schema's Static type with the named timestamps as the Date objects the services hand over: the response
 * serializer writes them as the ISO 8601 strings the schema declares.
 */
export type Dated<T, K extends keyof T> = { [P in keyof T]: P extends K ? Exclude<T[P], string> | Date : T[P] }
