import { expectBoundedFindAgrees, seedSparse } from "@psm/core/testing";
import { afterAll, expect, it } from "vitest";
import { openSqliteStorage } from "../index.js";
import { removeTempDbs, tempDbFile } from "../test-support/temp-db.js";
import { ftsQuery, lastWordTerm } from "./words-query.js";

afterAll(removeTempDbs);

const NOW = new Date("2026-03-01T13:00:00.000Z");

it("writes FTS5 queries: every word, the last also a prefix; rank 0 on the index of titles", () => {
  expect(ftsQuery(["a", "b"])).toEqual({
    all: '"a" AND "b" *',
    rest: '("a" AND "b" *) NOT {title} : ("a" AND "b" *)',
    exact: true,
    terms: ['"a"', '"b" *'],
  });
  // A stem longer than the prefix index: looked up by its first six letters, checked per row.
  expect(ftsQuery(["audit", "consulting"])).toMatchObject({
    all: '"audit" AND "consul" *',
    exact: false,
    last: { prefixes: ["consult"], completions: [] },
  });
});

it("looks a long last word up by a prefix that stemming keeps a prefix of its stem", () => {
  expect(lastWordTerm("kube")).toMatchObject({ term: "kube", exact: true });
  expect(lastWordTerm("kubernetes")).toMatchObject({ term: "kubern", exact: false });
  expect(lastWordTerm("employment")).toMatchObject({ term: "employment", exact: true }); // stem "employ"
  // "abcdey" would stem to "abcdei", no prefix of the stem: a shorter prefix is taken.
  expect(lastWordTerm("abcdeyzzz")).toMatchObject({ term: "abcde", exact: false });
});

it("looks a word typed past its stem up by a prefix of every stem it matches, checked per row", () => {
  // consulti completes to consulting (consult); pay and analy stem to pai and anali, yet begin
  // payroll and analytics: the prefix is the one they share.
  expect(lastWordTerm("consulti")).toMatchObject({ term: "consul", exact: false });
  expect(lastWordTerm("pay")).toMatchObject({ term: "pa", exact: false });
  expect(lastWordTerm("analy")).toMatchObject({ term: "anal", exact: false });
  expect(lastWordTerm("securi")).toMatchObject({ term: "secur", exact: false });
  expect(lastWordTerm("audit")).toMatchObject({ term: "audit", exact: true });
});

it("stops each find after its budget of rows with a point to resume from, missing and repeating nothing", async () => {
  // Two rows a walk: sparse matches make short pages in every sort, FTS-driven or index-driven.
  const storage = openSqliteStorage({ file: tempDbFile(), searchBudget: 2 });
  await storage.migrate();
  try {
    const rows = await seedSparse(storage.repositories);
    await expectBoundedFindAgrees((query, now) => storage.repositories.listings.find(query, now), rows);
  } finally {
    await storage.close();
  }
});

it("flags facets as capped when counting stopped at its budget, and counts exactly within it", async () => {
  const bounded = openSqliteStorage({ file: tempDbFile(), searchBudget: 2 });
  const whole = openSqliteStorage({ file: tempDbFile() });
  try {
    for (const storage of [bounded, whole]) {
      await storage.migrate();
      await seedSparse(storage.repositories);
    }
    const query = { status: "active", words: ["audit"] } as const;
    // 8 matches among 40 rows; the bounded count examines 8 (4 times its budget of 2), so it cannot
    // tell whether more follow.
    expect(await whole.repositories.listings.countByCategory(query, 1000, NOW)).toEqual({
      counts: { cybersecurity: 4, "data-analytics": 4 },
      capped: false,
    });
    const cut = await bounded.repositories.listings.countByCategory(query, 1000, NOW);
    expect(cut.capped).toBe(true);
    expect(cut.counts).toEqual({ cybersecurity: 4, "data-analytics": 4 });
    const plain = await bounded.repositories.listings.countByCategory({ status: "active" }, 1000, NOW);
    expect(plain.capped).toBe(true);
    expect((plain.counts.cybersecurity ?? 0) + (plain.counts["data-analytics"] ?? 0)).toBe(8);
  } finally {
    await bounded.close();
    await whole.close();
  }
});

it("leaves out what the index lacks: a whole word keeps its exact lookup", () => {
  const index = (terms: string[]) => ({
    beginsAny: (prefix: string) => terms.some((term) => term.startsWith(prefix)),
    holds: (term: string) => terms.includes(term),
  });
  // "data" completed by "ative" stems to "dat", which no listing here holds.
  expect(lastWordTerm("data")).toMatchObject({ term: "dat", exact: false });
  expect(lastWordTerm("data", index(["data", "consult"]))).toMatchObject({ term: "data", exact: true });
  expect(lastWordTerm("consulti", index(["consult"]))).toMatchObject({ term: "consul", exact: false });
  // No term begins "pay": only its stem pai is asked, exactly.
  expect(lastWordTerm("pay", index(["payrol"]))).toMatchObject({ term: "pa", exact: false });
  expect(lastWordTerm("pay", index(["pai"]))).toMatchObject({ term: "pay", exact: true });
});
