import { type Static, Type } from 'typebox'

const Day = Type.String({ format: 'date', description: 'a local day, YYYY-MM-DD (each location’s time zone)' })

export const ReportQuery = Type.Object(
  {
    from: Type.Optional(Day),
    to: Type.Optional(Day),
    location_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    format: Type.Optional(
      Type.Union([Type.Literal('json'), Type.Literal('csv')], { description: 'csv also with Accept: text/csv' }),
    ),
  },
  { additionalProperties: false },
)
export type ReportQuery = Static<typeof ReportQuery>

export const SalesQuery = Type.Object(
  {
    ...ReportQuery.properties,
    group_by: Type.Optional(
      Type.Union(
        [
          Type.Literal('day'),
          Type.Literal('week'),
          Type.Literal('month'),
          Type.Literal('location'),
          Type.Literal('product'),
          Type.Literal('category'),
          Type.Literal('register'),
        ],
        { description: 'default day; week starts on Monday' },
      ),
    ),
  },
  { additionalProperties: false },
)
export type SalesQuery = Static<typeof SalesQuery>

export const InventoryReportQuery = Type.Object(
  {
    location_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    format: ReportQuery.properties.format,
  },
  { additionalProperties: false },
)
export type InventoryReportQuery = Static<typeof InventoryReportQuery>

export const SnapshotQuery = Type.Object({ format: ReportQuery.properties.format }, { additionalProperties: false })

const Row = Type.Object({}, { additionalProperties: true, description: 'one row; its fields are the CSV columns' })

export const ReportSchema = Type.Object(
  {
    report: Type.String(),
    currency: Type.String(),
    from: Type.Optional(Type.String()),
    to: Type.Optional(Type.String()),
    group_by: Type.Optional(Type.String()),
    location_id: Type.Union([Type.String(), Type.Null()]),
    rows: Type.Array(Row),
    totals: Type.Object({}, { additionalProperties: true }),
  },
  { $id: 'Report' },
)

/** A row or the totals: the schema leaves their fields open (the CSV columns); each cell is a string, number or null. */
type ReportRow = Record<string, string | number | null>
export type Report = Omit<Static<typeof ReportSchema>, 'rows' | 'totals'> & { rows: ReportRow[]; totals: ReportRow }
