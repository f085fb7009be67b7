import { Column, fillPlaceholders, getTableName, is, SQL } from "drizzle-orm";

// Drizzle maps each row of a prepared select with mapResultRow: for every value an entity check
// of its field (a walk up the prototype chain), a path iterator and the nesting of objects. On
// the reads every signed-in request makes (its user, its key, the inbox, a page of listings)
// that was about a third of the driver's CPU: 21 listings cost ~390 µs of the process's CPU
// through drizzle and ~260 µs read as arrays and decoded here (bench, 2026-11-30). The statement
// is still drizzle's, built once and prepared by the driver as before; only the mapping of its
// rows is compiled once per statement instead of interpreted per value.

/** What drizzle's prepared postgres.js query holds (drizzle-orm/postgres-js/session.js). */
interface PreparedInternals {
  client?: {
    unsafe(
      query: string,
      params: unknown[],
      options: { prepare: boolean },
    ): { values(): Promise<unknown[][]> };
  };
  queryString?: string;
  params?: unknown[];
  prepare?: boolean;
  fields?: { path: string[]; field: unknown }[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: unknown;
  execute(values?: Record<string, unknown>): Promise<unknown>;
}

/** What turns a driver's value into the field's. */
type Decoder = { mapFromDriverValue(value: unknown): unknown };

/** How one value of a row is decoded and where it goes. */
interface Slot {
  outer: string;
  inner?: string;
  decode?: (value: unknown) => unknown;
}

/**
 * Executes drizzle's prepared select `prepared` with the driver's array rows and the mapping
 * compiled once: the same objects as `prepared.execute(values)`, nested selections and a left
 * join's missing row (null) included. A query drizzle maps otherwise (a custom mapper, a field
 * nested deeper) runs through drizzle as before.
 */
export function asArrays<Row>(prepared: {
  execute(values?: Record<string, unknown>): Promise<Row[]>;
}): (values: Record<string, unknown>) => Promise<Row[]> {
  const inside = prepared as PreparedInternals;
  const { client, queryString, params, fields } = inside;
  const compiled = fields && compile(fields, inside.joinsNotNullableMap);
  if (!client || queryString === undefined || !params || !compiled || inside.customResultMapper) {
    return (values) => prepared.execute(values);
  }
  const { slots, nullable } = compiled;
  const options = { prepare: inside.prepare ?? true };
  return async (values) => {
    const rows = await client.unsafe(queryString, fillPlaceholders(params, values), options).values();
    const out: Row[] = new Array(rows.length);
    for (let r = 0; r < rows.length; r++) out[r] = toObject(rows[r] as unknown[], slots, nullable) as Row;
    return out;
  };
}

/** A left-joined table's object, by its key in the result and the key of its first column. */
type Nullable = { outer: string; first: string };

/**
 * The mapping of `column`'s driver values, or none where there is nothing to map: text, uuid,
 * numbers, booleans and JSON come from postgres.js as they are kept; instants come as text
 * (drizzle sets postgres.js's timestamp parsers to keep it) and become Dates here.
 */
export function decoderOf(column: Column): ((value: unknown) => unknown) | undefined {
  return column.mapFromDriverValue === Column.prototype.mapFromDriverValue
    ? undefined
    : (value) => column.mapFromDriverValue(value);
}

function toObject(row: unknown[], slots: readonly Slot[], nullable: readonly Nullable[]): unknown {
  const result: Record<string, unknown> = {};
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i] as Slot;
    const raw = row[i];
    const value = raw === null || raw === undefined ? null : slot.decode ? slot.decode(raw) : raw;
    if (slot.inner === undefined) result[slot.outer] = value;
    else {
      let nested = result[slot.outer] as Record<string, unknown> | undefined;
      if (nested === undefined) {
        nested = {};
        result[slot.outer] = nested;
      }
      nested[slot.inner] = value;
    }
  }
  // As drizzle: a left-joined table's object is null when its first column is (no row joined).
  for (const { outer, first } of nullable) {
    if ((result[outer] as Record<string, unknown>)[first] === null) result[outer] = null;
  }
  return result;
}

function compile(
  fields: readonly { path: string[]; field: unknown }[],
  notNullable: Record<string, boolean> | undefined,
): { slots: Slot[]; nullable: Nullable[] } | undefined {
  const slots: Slot[] = [];
  const tables = new Map<string, { table: string; first: string }>();
  for (const { path, field } of fields) {
    if (path.length < 1 || path.length > 2) return undefined;
    const [outer, inner] = path as [string, string?];
    const slot: Slot = { outer };
    if (inner !== undefined) slot.inner = inner;
    if (is(field, Column)) {
      const decode = decoderOf(field);
      if (decode) slot.decode = decode;
      if (inner !== undefined && !tables.has(outer))
        tables.set(outer, { table: getTableName(field.table), first: inner });
    } else if (inner === undefined && (is(field, SQL) || is(field, SQL.Aliased))) {
      // `decoder` is drizzle's own (sql<T>`…`.mapWith): internal in its types, read as mapResultRow does.
      const { decoder } = (is(field, SQL) ? field : field.sql) as unknown as { decoder: Decoder };
      slot.decode = (value) => decoder.mapFromDriverValue(value);
    } else return undefined;
    slots.push(slot);
  }
  const nullable = [...tables]
    .filter(([, { table }]) => notNullable?.[table] === false)
    .map(([outer, { first }]) => ({ outer, first }));
  return { slots, nullable };
}
