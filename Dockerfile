# syntax=docker/dockerfile:1
# The marketplace server as a container: SQLite in the /data volume by default,
# PostgreSQL when DATABASE_URL names one (compose.yaml). No container daemon runs
# where this project is developed: scripts/container-build-check.ts replays
# these steps (COPY, WORKDIR, ENV, RUN) in a clean folder in CI, starts the
# result and runs the HEALTHCHECK command against it. docs/operations.md says
# what was and was not tried.

# Build: install from the lockfile, compile, and deploy @psm/server with its
# production dependencies only into /src/deploy.
FROM node:24-bookworm-slim AS build
# check:skip the CI machine brings its own pnpm 10
RUN npm install --global --no-audit --no-fund pnpm@10.34.9
ENV CI=true
WORKDIR /src
# The lockfile alone decides what is downloaded: this layer survives source edits.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
# The patched dependencies (pnpm-workspace.yaml patchedDependencies): the lockfile names their hashes.
COPY patches ./patches
RUN pnpm fetch
COPY . .
RUN pnpm install --frozen-lockfile --offline
RUN pnpm build
# --legacy: a plain copy of the workspace packages, without switching the whole
# workspace to injected dependencies (which would stop dist/ changes reaching dependents in development).
RUN pnpm --filter=@psm/server deploy --prod --legacy deploy

# Runtime: Node.js, the deployed server and nothing else; a user without rights
# outside /data.
FROM node:24-bookworm-slim AS runtime
ENV HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
# Memory (docs/performance.md, "Password hashes reuse their memory"): glibc keeps
# one arena, not one per thread, so a password hash's 19 MiB is reused from one
# hash to the next, and malloc_trim can hand it back (the server does, 2 s after
# a burst of hashing); a thread's own arena keeps its top out of malloc_trim's reach.
ENV MALLOC_ARENA_MAX=1
WORKDIR /app
COPY --from=build /src/deploy /app
# check:skip the check gives the server a temporary DATA_DIR of its own
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
# /readyz answers 200 once the database answers a ping.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# A young generation of 4 MiB semi-spaces: V8 would grow it to 64 MiB ones under load. An old
# generation of at most 1 GiB: V8 then lets it grow to ~1.6 × what is live between collections,
# where on a machine with 16 GiB or more it allows 4 × (docs/performance.md, "Footprint").
CMD ["node", "--max-semi-space-size=4", "--max-old-space-size=1024", "bin/psm-server.js"]
