#!/usr/bin/env bash
# Runs the distributed-array suite under one Legate configuration: run.sh "<LEGATE_CONFIG>" suite.
# Legate's libraries link the CUDA driver, so without a driver the suite cannot start: it is then
# reported as skipped (77), never as passed, as the GPU tests are; so is a GPU configuration on a
# machine without a GPU.
set -u
config="$1"
shift
if ! "$@" --list-tests >/dev/null 2>&1; then
  echo "SKIPPED: the suite cannot start here (Legate needs the CUDA driver, libcuda.so.1)"
  exit 77
fi
if [[ "$config" != *"--gpus 0"* ]] && ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIPPED: this configuration needs a GPU ($config)"
  exit 77
fi
LEGATE_CONFIG="$config" exec "$@"
