// `pnpm screenshots`: the README's pictures, taken from `psm-server seed-demo` data (never test
// fixtures). Seeds a fresh database in a temporary folder, starts the compiled server on
// loopback, and photographs the browse page on a laptop and the post page on a phone (a brochure
// read into the form) with Debian's chromium through playwright-core. Run after `pnpm build`.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const SERVER = new URL("../bin/psm-server.js", import.meta.url).pathname;
const OUT = new URL("../../../docs/screenshots/", import.meta.url).pathname;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const MEMBER = { email: "contact@kestrel-engineering.example.com", password: "demo-password" };
const BROCHURE = [
  "Kubernetes Cost Review",
  "",
  "A two-week review of your clusters: rightsizing, autoscaling and spot capacity,",
  "with a written plan your team can carry out.",
  "Day rate: USD 950 per day.",
  "Contact: contact@kestrel-engineering.example.com",
].join("\n");

function startServer(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const env = { ...process.env, DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info" };
  const child = spawn(process.execPath, [SERVER], { env, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let seen = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const url = /"url":"(http:\/\/[^"]+)"/.exec(seen)?.[1];
      if (url) resolve({ url, child });
    });
    child.once("exit", (code) => reject(new Error(`psm-server exited with ${code}`)));
  });
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "psm-screenshots-"));
  try {
    const seeded = spawnSync(process.execPath, [SERVER, "seed-demo"], {
      env: { ...process.env, DATA_DIR: dataDir },
      stdio: "inherit",
    });
    if (seeded.status !== 0) throw new Error("seed-demo failed");
    const { url, child } = await startServer(dataDir);
    const browser = await chromium.launch({ executablePath: CHROMIUM });
    try {
      const laptop = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await laptop.goto(`${url}/`);
      await laptop.screenshot({ path: join(OUT, "browse-laptop.png") });

      const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
      await phone.goto(`${url}/login`);
      await phone.getByLabel("Email").fill(MEMBER.email);
      await phone.getByLabel("Password").fill(MEMBER.password);
      await Promise.all([
        phone.waitForURL((at) => !at.pathname.startsWith("/login")),
        phone.getByRole("button", { name: "Log in" }).click(),
      ]);
      await phone.goto(`${url}/post`);
      await phone.locator('input[type="file"]').setInputFiles({
        name: "brochure.txt",
        mimeType: "text/plain",
        buffer: Buffer.from(BROCHURE),
      });
      await Promise.all([
        phone.waitForURL((at) => at.pathname === "/post/document"),
        phone.getByRole("button", { name: "Read document" }).click(),
      ]);
      await phone.screenshot({ path: join(OUT, "post-listing-phone.png"), fullPage: true });
    } finally {
      await browser.close();
      child.kill("SIGTERM");
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
