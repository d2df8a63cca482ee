#!/usr/bin/env bash
# Runs the distributed-array suite under one Legate configuration: run.sh "<LEGATE_CONFIG>" suite.
# Legate's libraries link the CUDA driver: where libcuda.so.1 is missing the suite cannot start
# and is reported as skipped (77), never as passed, as the GPU tests are; so is a GPU
# configuration on a machine without a GPU. Any other failure to start fails the test.
set -u
config="$1"
shift
if ! start=$("$@" --list-tests 2>&1); then
  if [[ "$start" == *"libcuda.so.1"* ]]; then
    echo "SKIPPED: no CUDA driver here (Legate needs libcuda.so.1)"
    exit 77
  fi
  echo "$start"
  exit 1
fi
if [[ "$config" != *"--gpus 0"* ]] && ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIPPED: this configuration needs a GPU ($config)"
  exit 77
fi
LEGATE_CONFIG="$config" exec "$@"
