// Replays the Dockerfile without a container daemon (none runs in CI), so its
// build steps are tested: each stage gets a folder of its own standing for its
// filesystem; COPY, WORKDIR, ENV and RUN are carried out there in order (RUN
// through sh, with this machine's node and pnpm); then the runtime stage's CMD
// is started on a free port and its HEALTHCHECK command run until it passes.
// A RUN preceded by a "# check:skip REASON" line is not run, and the reason is
// printed. Any RUN that prints a pnpm WARN or "Ignored build scripts" fails the
// check: a clean install must be quiet.
//   node scripts/container-build-check.ts [--keep]
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join, matchesGlob, posix, resolve } from "node:path";

const REPO = resolve(import.meta.dirname, "..");
const keep = process.argv.includes("--keep");
const work = mkdtempSync(join(tmpdir(), "psm-container-"));

interface Stage {
  name: string;
  root: string;
  workdir: string;
  env: Record<string, string>;
  cmd: string[];
  healthcheck: string[];
}

/** Dockerfile instructions: continuation lines joined, comments kept as "#" instructions (for check:skip). */
function instructions(text: string): { op: string; rest: string }[] {
  const out: { op: string; rest: string }[] = [];
  let pending = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (pending === "" && line.startsWith("#")) {
      out.push({ op: "#", rest: line.slice(1).trim() });
      continue;
    }
    if (pending === "" && line === "") continue;
    pending += `${line.replace(/\\$/, "")} `;
    if (line.endsWith("\\")) continue;
    const [, op = "", rest = ""] = /^(\S+)\s*(.*)$/.exec(pending.trim()) ?? [];
    out.push({ op: op.toUpperCase(), rest });
    pending = "";
  }
  return out;
}

/** A path inside a stage's folder for a path in its container, relative ones taken from WORKDIR. */
function inStage(stage: Stage, path: string): string {
  return join(stage.root, posix.resolve(stage.workdir, path));
}

/** The build context as `docker build .` sends it: the working tree's files, less .dockerignore's patterns. */
function contextFiles(): string[] {
  const patterns = readFileSync(join(REPO, ".dockerignore"), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: REPO,
    encoding: "utf8",
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  const ignored = (file: string) => {
    const parts = file.split("/");
    return parts.some((_, i) => {
      const prefix = parts.slice(0, i + 1).join("/");
      return patterns.some((pattern) => matchesGlob(prefix, pattern));
    });
  };
  return [...new Set(listed.stdout.split("\0"))].filter(
    (file) => file !== "" && existsSync(join(REPO, file)) && !ignored(file),
  );
}

function copy(stage: Stage, rest: string, stages: Map<string, Stage>, context: string[]): void {
  const words = rest.split(/\s+/);
  const from = words.find((word) => word.startsWith("--from="))?.slice("--from=".length);
  const paths = words.filter((word) => !word.startsWith("--"));
  const dest = paths.pop() ?? "";
  const target = inStage(stage, dest);
  for (const source of paths) {
    if (from !== undefined) {
      const origin = stages.get(from);
      if (!origin) throw new Error(`COPY --from=${from}: no such stage`);
      cpSync(inStage(origin, source), target, { recursive: true });
      continue;
    }
    const prefix = posix.normalize(source).replace(/\/$/, "");
    const matched = context.filter(
      (file) => prefix === "." || file === prefix || file.startsWith(`${prefix}/`),
    );
    if (matched.length === 0) throw new Error(`COPY ${source}: not in the build context`);
    for (const file of matched) {
      const into =
        prefix === "."
          ? join(target, file)
          : file !== prefix
            ? join(target, file.slice(prefix.length + 1))
            : dest.endsWith("/") || paths.length > 1
              ? join(target, basename(file))
              : target;
      mkdirSync(dirname(into), { recursive: true });
      cpSync(join(REPO, file), into);
    }
  }
}

/** KEY=value pairs of an ENV line; absolute paths are moved into the stage's folder. */
function envOf(stage: Stage, rest: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const pair of rest.split(/\s+/)) {
    const [key = "", value = ""] = pair.split("=", 2);
    pairs[key] = value.startsWith("/") ? join(stage.root, value) : value;
  }
  return pairs;
}

function run(stage: Stage, command: string): void {
  const cwd = join(stage.root, stage.workdir);
  mkdirSync(cwd, { recursive: true });
  const started = Date.now();
  const result = spawnSync("sh", ["-c", command], {
    cwd,
    env: { ...process.env, ...stage.env },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${result.stdout}${result.stderr}`;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) throw new Error(`RUN ${command} failed (exit ${result.status}):\n${output}`);
  const noisy = output.split("\n").filter((line) => / WARN |Ignored build scripts/.test(line));
  if (noisy.length > 0) throw new Error(`RUN ${command} warned:\n${noisy.join("\n")}`);
  console.log(`  RUN ${command}  (${seconds} s)`);
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? done(address.port) : fail(new Error("no port")),
      );
    });
  });
}

/** Builds every stage; answers the last one (the image). */
function build(): Stage {
  const stages = new Map<string, Stage>();
  const context = contextFiles();
  let stage: Stage | undefined;
  let skip: string | undefined;
  for (const { op, rest } of instructions(readFileSync(join(REPO, "Dockerfile"), "utf8"))) {
    if (op === "#") {
      const reason = /^check:skip\s+(.*)$/.exec(rest)?.[1];
      if (reason !== undefined) skip = reason;
      continue;
    }
    if (op === "FROM") {
      const name = /\bAS\s+(\S+)/i.exec(rest)?.[1] ?? String(stages.size);
      stage = { name, root: join(work, name), workdir: "/", env: {}, cmd: [], healthcheck: [] };
      stages.set(name, stage);
      console.log(`stage ${name} (${rest.split(/\s+/)[0]})`);
      continue;
    }
    if (!stage) throw new Error(`${op} before FROM`);
    if (op === "RUN" && skip !== undefined) {
      console.log(`  skipped RUN ${rest}: ${skip}`);
      skip = undefined;
      continue;
    }
    if (op === "WORKDIR") stage.workdir = posix.resolve(stage.workdir, rest);
    else if (op === "ENV") Object.assign(stage.env, envOf(stage, rest));
    else if (op === "COPY") copy(stage, rest, stages, context);
    else if (op === "RUN") run(stage, rest);
    else if (op === "CMD") stage.cmd = JSON.parse(rest) as string[];
    else if (op === "HEALTHCHECK") stage.healthcheck = JSON.parse(rest.replace(/^.*?CMD\s+/, "")) as string[];
    // USER, VOLUME, EXPOSE: what a container runtime does; nothing to replay here.
  }
  if (!stage) throw new Error("the Dockerfile has no stage");
  return stage;
}

async function probe(image: Stage): Promise<void> {
  const [command = "", ...args] = image.cmd;
  if (existsSync(join(image.root, "app/node_modules/vitest")))
    throw new Error("the image holds dev dependencies");
  const port = String(await freePort());
  // What `docker run -e` adds: the port, and PUBLIC_URL, which the server requires when HOST is 0.0.0.0.
  const runtime = { PORT: port, PUBLIC_URL: `http://localhost:${port}` };
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    ...image.env,
    ...runtime,
  };
  mkdirSync(env.DATA_DIR ?? join(image.root, "data"), { recursive: true });
  const server = spawn(command, args, {
    cwd: join(image.root, image.workdir),
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  server.stdout.on("data", (chunk: Buffer) => (output += chunk));
  server.stderr.on("data", (chunk: Buffer) => (output += chunk));
  const exited = new Promise<number | null>((done) => server.once("exit", (code) => done(code)));
  try {
    const [check = "", ...checkArgs] = image.healthcheck;
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the server exited (${server.exitCode}):\n${output}`);
      if (spawnSync(check, checkArgs, { env, timeout: 5_000 }).status === 0) break;
      if (Date.now() > deadline) throw new Error(`HEALTHCHECK did not pass within 30 s:\n${output}`);
      await new Promise((done) => setTimeout(done, 250));
    }
    const capabilities = (await (await fetch(`http://127.0.0.1:${port}/api/capabilities`)).json()) as {
      version: string;
    };
    console.log(`  HEALTHCHECK passed; /api/capabilities says version ${capabilities.version}`);
  } finally {
    server.kill("SIGTERM");
  }
  const code = await exited;
  if (code !== 0) throw new Error(`the server did not drain and exit 0 on SIGTERM (${code}):\n${output}`);
  console.log("  SIGTERM: drained, exit 0");
}

const started = Date.now();
try {
  await probe(build());
  console.log(`container build check passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
} catch (error) {
  console.error(`container build check failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  if (keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
