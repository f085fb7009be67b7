#!/usr/bin/env sh
# Builds the workspace, packs every library package as npm would publish it,
# installs the tarballs in this example with npm (outside the pnpm workspace),
# then type-checks the example and runs its tests against them.
#
#   sh examples/embed/scripts/pack-and-install.sh [--clean] [vitest options...]
#
# --clean deletes every package's dist/ and build info first, so no file left by
# an older build reaches a tarball (CI passes it; other processes must not be
# reading dist/ meanwhile). Further arguments go to `vitest run` (e.g. a JSON
# reporter for CI).
set -eu
example="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$example/../.." && pwd)"
packs="$root/.tmp/packs"

clean=false
if [ "${1:-}" = "--clean" ]; then
  clean=true
  shift
fi

cd "$root"
if [ "$clean" = true ]; then
  rm -rf packages/*/dist packages/*/tsconfig.tsbuildinfo apps/*/dist apps/*/tsconfig.tsbuildinfo
fi
pnpm build

rm -rf "$packs"
mkdir -p "$packs"
pnpm -r --filter './packages/*' pack --pack-destination "$packs" >/dev/null
# Version-free names, so package.json's file: paths survive a version bump.
for tarball in "$packs"/*.tgz; do
  mv "$tarball" "$(echo "$tarball" | sed -E 's/-[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?\.tgz$/.tgz/')"
done
ls "$packs"

cd "$example"
# npm caches a file: dependency by path; drop the installed copies so the new tarballs are unpacked.
rm -rf node_modules/@psm
npm install --no-audit --no-fund --no-package-lock
npx tsc --noEmit -p .
npx vitest run "$@"
