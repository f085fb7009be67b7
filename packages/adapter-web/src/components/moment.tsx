import { formatDateTime } from "../format.js";

/** A moment as people read it ("3 Mar 2026, 14:05 UTC"), with its machine-readable instant. */
export const at = (date: Date) => <time datetime={date.toISOString()}>{formatDateTime(date)}</time>;
