import { describe, expect, it } from "vitest";
import { parsePrometheusText } from "./prometheus-text.js";

const HISTOGRAM = `# HELP h_seconds Time.
# TYPE h_seconds histogram
h_seconds_bucket{le="0.1",op="/a",status="200"} 1
h_seconds_bucket{le="+Inf",op="/a",status="200"} 2
h_seconds_sum{op="/a",status="200"} 0.3
h_seconds_count{op="/a",status="200"} 2
h_seconds_bucket{le="0.1",op="/b",status="404"} 0
h_seconds_bucket{le="+Inf",op="/b",status="404"} 1
h_seconds_sum{op="/b",status="404"} 0.2
h_seconds_count{op="/b",status="404"} 1
# TYPE c_total counter
c_total{class="re\\"set"} 1
c_total{class="read",} Nan
`;

describe("the test's Prometheus text parser", () => {
  it("keeps each labelled series of a histogram apart, with its buckets, count and sum", () => {
    const families = parsePrometheusText(HISTOGRAM);
    expect(families.get("h_seconds")?.series).toEqual([
      {
        labels: { op: "/a", status: "200" },
        buckets: new Map([
          ["0.1", 1],
          ["+Inf", 2],
        ]),
        sum: 0.3,
        count: 2,
      },
      {
        labels: { op: "/b", status: "404" },
        buckets: new Map([
          ["0.1", 0],
          ["+Inf", 1],
        ]),
        sum: 0.2,
        count: 1,
      },
    ]);
    expect(families.get("c_total")?.series.map((s) => [s.labels.class, s.value])).toEqual([
      ['re"set', 1],
      ["read", Number.NaN],
    ]);
  });

  it.each([
    [
      "a count that is not the +Inf bucket",
      HISTOGRAM.replace('h_seconds_count{op="/a",status="200"} 2', 'h_seconds_count{op="/a",status="200"} 3'),
    ],
    [
      "buckets that are not cumulative",
      HISTOGRAM.replace(
        'h_seconds_bucket{le="0.1",op="/a",status="200"} 1',
        'h_seconds_bucket{le="0.1",op="/a",status="200"} 5',
      ),
    ],
    ["a sample apart from its family", `${HISTOGRAM}h_seconds_count{op="/c"} 1\n`],
    ["a sample without a value", '# TYPE g gauge\ng{a="1"}\n'],
    ["an unquoted label value", "# TYPE g gauge\ng{a=1} 1\n"],
    ["no final line feed", "# TYPE g gauge\ng 1"],
  ])("refuses %s", (_, text) => {
    expect(() => parsePrometheusText(text)).toThrow();
  });
});
