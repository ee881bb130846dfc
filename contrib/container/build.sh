#!/bin/sh
# The build stage of contrib/container/Containerfile, as plain shell (the container build runs
# it, and so does tests/recipes/recipes.rs on a machine without a container builder): build the
# repcensus binary from the source tree SRC, stripped, and lay out DEST as the final image's
# files: /usr/local/bin/repcensus and the recipes' scripts beside it.
#
#   contrib/container/build.sh SRC DEST
#
# CARGO_TARGET_DIR and CARGO_BUILD_FLAGS (split on spaces, e.g. `--features x`) reach cargo.
set -eu
src=${1:?usage: build.sh SRC DEST}
dest=${2:?usage: build.sh SRC DEST}
target=${CARGO_TARGET_DIR:-$src/target}
# shellcheck disable=SC2086 # split on purpose
(cd "$src" && cargo build --release --locked --bin repcensus ${CARGO_BUILD_FLAGS:-})
mkdir -p "$dest/usr/local/bin"
# Debug information is most of the binary's size (the release profile keeps it for profiling).
objcopy --strip-debug "$target/release/repcensus" "$dest/usr/local/bin/repcensus" 2>/dev/null ||
    { cp "$target/release/repcensus" "$dest/usr/local/bin/repcensus" && strip "$dest/usr/local/bin/repcensus"; }
for script in k8s/shard-task.sh commoncrawl/robotstxt-census.sh; do
    cp "$src/contrib/$script" "$dest/usr/local/bin/"
done
chmod 755 "$dest"/usr/local/bin/*
