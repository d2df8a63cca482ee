#!/usr/bin/env bash
# Prints a directory holding Catch2 v3's amalgamated sources (catch_amalgamated.hpp and .cpp),
# unpacked once into the directory given (default build-asan/catch2-v3) from Debian's catch2
# source package: 3.7.1 from the archive's pool, checked against its SHA-256, or else the catch2
# 3.x of Debian's stable release, checked against the SHA-256 in the release's signed index.
# scripts/sanitize.sh builds the host suite against it where the system's Catch2 is v2, so that CI
# compiles the tests with both major versions.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dest="${1:-$here/build-asan/catch2-v3}"
if [[ -f "$dest/catch_amalgamated.hpp" && -f "$dest/catch_amalgamated.cpp" ]]; then echo "$dest"; exit 0; fi
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

fetch() {  # url sha256
  curl -fsSL --retry 3 -m 120 -o "$tmp/catch2.tar.gz" "$1" && echo "$2  $tmp/catch2.tar.gz" | sha256sum -c --quiet -
}
if ! fetch "$mirror/pool/main/c/catch2/catch2_3.7.1.orig.tar.gz" c991b247a1a0d7bb9c39aa35faf0fe9e19764213f28ffba3109388e62ee0269c; then
  # The pinned version left the pool: take stable's, as its Sources index names it.
  curl -fsSL --retry 3 -m 120 -o "$tmp/Sources.xz" "$mirror/dists/stable/main/source/Sources.xz"
  read -r sha file < <(xz -dc "$tmp/Sources.xz" | awk '/^Package: catch2$/ {p = 1} p && /^Checksums-Sha256:/ {c = 1; next}
    p && c && /orig\.tar/ {print $1, $3; exit} /^$/ {p = 0; c = 0}')
  [[ "$file" == catch2_3.* ]] || { echo "catch2_v3.sh: no Catch2 3.x source in Debian stable's index" >&2; exit 1; }
  fetch "$mirror/pool/main/c/catch2/$file" "$sha"
fi
tar -xzf "$tmp/catch2.tar.gz" -C "$tmp"
mkdir -p "$dest"
cp "$tmp"/Catch2-*/extras/catch_amalgamated.hpp "$tmp"/Catch2-*/extras/catch_amalgamated.cpp "$dest"/
echo "$dest"
