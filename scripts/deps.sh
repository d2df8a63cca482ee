#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages a build needs, when they are missing: deps.sh demo|test|bench
set -euo pipefail
pkgs=(cmake ninja-build g++ libopenblas-dev)
case "${1:-test}" in
  test) pkgs+=(catch2 python3-venv zlib1g-dev curl xz-utils libblas-dev pkgconf) ;;
  bench) pkgs+=(libbenchmark-dev) ;;
esac
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]})); then
  sudo_cmd=""
  [[ $(id -u) -ne 0 ]] && sudo_cmd="sudo"
  echo "installing: ${missing[*]}"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
command -v nvcc >/dev/null || export PATH="/usr/local/cuda/bin:$PATH"
command -v nvcc >/dev/null || { echo "nvcc (the CUDA toolkit) is required; it is not on PATH or in /usr/local/cuda/bin"; exit 1; }
