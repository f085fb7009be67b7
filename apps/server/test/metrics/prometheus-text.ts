/**
 * A strict parser of the Prometheus text exposition format (version 0.0.4), as a scraper reads
 * it: any line it cannot read, a sample before its family's TYPE or apart from its family, a
 * histogram whose buckets are not cumulative or whose +Inf bucket is not its count, is an error.
 *
 * Written here because the parser on npm (parse-prometheus-text-format 1.1.1, unchanged since
 * 2019) merges every labelled series of a histogram into one and drops their counts and sums
 * (its issue #13, fix #8 never merged): it cannot check requests by operation and status.
 */

/** One series: its labels and value (counters, gauges), or its buckets, count and sum (histograms). */
export interface Series {
  labels: Record<string, string>;
  value?: number;
  /** Histograms: the cumulative count per upper bound, by the `le` label as written ("+Inf" last). */
  buckets?: Map<string, number>;
  count?: number;
  sum?: number;
}

export interface Family {
  name: string;
  help: string;
  type: "counter" | "gauge" | "histogram" | "summary" | "untyped";
  series: Series[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);

/** The families of a scrape by name, in the order they came. */
export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  let current: Family | undefined;
  const lines = text.split("\n");
  if (lines.pop() !== "") throw new Error("the text must end with a line feed");
  for (const [index, line] of lines.entries()) {
    const fail = (why: string): never => {
      throw new Error(`line ${index + 1}: ${why}: ${line}`);
    };
    if (line.trim() === "") continue;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      const [, keyword, name = "", rest = ""] = meta;
      if (!NAME.test(name)) fail("bad metric name");
      let family = families.get(name);
      if (family === undefined) {
        family = { name, help: "", type: "untyped", series: [] };
        families.set(name, family);
      } else if (family !== current || family.series.length > 0) fail(`${name} described twice or late`);
      current = family;
      if (keyword === "HELP") family.help = rest.replace(/\\n/g, "\n").replace(/\\\\/g, "\\");
      else if (TYPES.has(rest)) family.type = rest as Family["type"];
      else fail("unknown type");
      continue;
    }
    if (line.startsWith("#")) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: -?\d+)?$/.exec(line);
    if (!sample) return fail("not a sample");
    const [, name = "", labelText = "", valueText = ""] = sample;
    const value = parseValue(valueText) ?? fail("bad value");
    const labels = parseLabels(labelText) ?? fail("bad labels");
    if (current === undefined || !belongs(current, name)) return fail("sample outside its family");
    addSample(current, name.slice(current.name.length), labels, value, fail);
  }
  for (const family of families.values()) if (family.type === "histogram") checkHistogram(family);
  return families;
}

function belongs(family: Family, name: string): boolean {
  if (family.type !== "histogram" && family.type !== "summary") return name === family.name;
  const suffixes = family.type === "histogram" ? ["_bucket", "_sum", "_count"] : ["", "_sum", "_count"];
  return suffixes.some((suffix) => name === family.name + suffix);
}

function addSample(
  family: Family,
  suffix: string,
  labels: Record<string, string>,
  value: number,
  fail: (why: string) => never,
): void {
  const { le, ...own } = labels;
  const mine = family.type === "histogram" ? own : labels;
  const key = keyOf(mine);
  let series = family.series.find((s) => keyOf(s.labels) === key);
  if (series === undefined) {
    series = { labels: mine };
    family.series.push(series);
  }
  if (suffix === "_bucket") {
    if (le === undefined) fail("a bucket without le");
    series.buckets ??= new Map();
    series.buckets.set(le as string, value);
  } else if (suffix === "_sum") series.sum = value;
  else if (suffix === "_count") series.count = value;
  else series.value = value;
}

/** Labels as one string, whatever order they were written in. */
function keyOf(labels: Record<string, string>): string {
  return JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function checkHistogram(family: Family): void {
  for (const series of family.series) {
    const where = `${family.name}${JSON.stringify(series.labels)}`;
    const buckets = [...(series.buckets ?? new Map<string, number>())];
    if (buckets.at(-1)?.[0] !== "+Inf") throw new Error(`${where}: the last bucket is not +Inf`);
    if (series.count !== buckets.at(-1)?.[1] || series.sum === undefined)
      throw new Error(`${where}: its count and sum do not match its buckets`);
    for (let i = 1; i < buckets.length; i++) {
      const [bound = "", count = 0] = buckets[i] ?? [];
      const [lower = "", below = 0] = buckets[i - 1] ?? [];
      if (count < below || !(Number(lower) < Number(bound.replace("+Inf", "Infinity"))))
        throw new Error(`${where}: buckets are not cumulative in increasing bounds`);
    }
  }
}

/** A float as Prometheus reads one (Go's ParseFloat): NaN and Inf in any case (prom-client writes "Nan"). */
function parseValue(text: string): number | undefined {
  if (/^nan$/i.test(text)) return Number.NaN;
  if (/^[+-]?inf(inity)?$/i.test(text)) return text.startsWith("-") ? -Infinity : Infinity;
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : undefined;
}

/** `a="1",b="x\"y"` (a trailing comma allowed), or undefined when malformed. */
function parseLabels(text: string): Record<string, string> | undefined {
  const labels: Record<string, string> = {};
  const pair = /([^=,\s]+)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/y;
  for (let at = 0; at < text.length; at = pair.lastIndex) {
    pair.lastIndex = at;
    const m = pair.exec(text);
    if (!m || !LABEL.test(m[1] ?? "") || (m[1] ?? "") in labels) return undefined;
    labels[m[1] ?? ""] = (m[2] ?? "").replace(/\\(["\\n])/g, (_, c: string) => (c === "n" ? "\n" : c));
  }
  return labels;
}
