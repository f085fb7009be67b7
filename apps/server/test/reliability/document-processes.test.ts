import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { seedUser } from "../support/accounts.js";
import { useHarness } from "../support/harness.js";
import { call, expectStatus } from "../support/http.js";
import { waitFor } from "../support/wait.js";

const h = useHarness();

/** The document processes (children running the parser's entry script) of process `parent`. */
function documentProcesses(parent: number): number[] {
  return readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "latin1");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "latin1");
      return ppid === parent && cmdline.includes("worker/entry.js") ? [Number(entry)] : [];
    } catch {
      return []; // gone meanwhile
    }
  });
}

function upload(text: string): FormData {
  const form = new FormData();
  form.set("file", new File([text], "offer.txt", { type: "text/plain" }));
  return form;
}
const OFFER = "Bookkeeping for small firms\nMonthly accounts from $290 a month.\nContact: books@tidy.io";

describe.skipIf(process.platform !== "linux")("document processes (needs /proc to find them)", () => {
  it("a killed document process costs its job at most, never the server: the next document gets a fresh one", async () => {
    const server = await h.server({ dataDir: await h.dataDir() });
    const pid = server.child.pid ?? 0;
    const user = await seedUser(server.url, "docs@example.com", 0);
    const parse = () =>
      call(server.url, "POST", "/api/parse-pdf", { apiKey: user.apiKey, form: upload(OFFER) });

    expectStatus(await parse(), 200);
    const [first] = documentProcesses(pid);
    expect(first).toBeGreaterThan(0);
    process.kill(first ?? 0, "SIGKILL");
    await waitFor("the killed process to be gone", () =>
      documentProcesses(pid).includes(first ?? 0) ? undefined : true,
    );

    expectStatus(await call(server.url, "GET", "/healthz"), 200);
    const again = await parse();
    expectStatus(again, 200);
    expect(again.body.price).toBe(290);
    expect(documentProcesses(pid)).not.toContain(first);
    expect(server.child.exitCode).toBeNull();

    // Killed while its job runs (or starts): that one request gets a clear error, the server goes on.
    const [second] = documentProcesses(pid);
    const running = parse();
    process.kill(second ?? 0, "SIGKILL");
    const answer = await running;
    if (answer.status !== 200) {
      expect([422, 503]).toContain(answer.status);
      expect(answer.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    }
    expectStatus(await parse(), 200);
    expect(server.child.exitCode).toBeNull();
  }, 180_000);
});
