#!/usr/bin/env bash
# Runs the distributed-array suite under one Legate configuration: run.sh "<LEGATE_CONFIG>" suite.
# Legate's libraries link the CUDA driver. Where libcuda.so.1 is missing, a configuration without
# GPUs (--gpus 0) runs over the stand-in driver in $XFUSE_NO_GPU_DRIVER (a directory holding a
# libcuda.so.1 that reports no device: tests/legate/no_gpu_driver.cpp); without one the suite is
# reported as skipped (77), never as passed, as the GPU tests are; so is a GPU configuration on a
# machine without a GPU. Any other failure to start fails the test.
set -u
config="$1"
shift
if ! start=$("$@" --list-tests 2>&1); then
  stand_in="${XFUSE_NO_GPU_DRIVER:-}"
  if [[ "$start" == *"libcuda.so.1"* && "$config" == *"--gpus 0"* && -n "$stand_in" && -e "$stand_in/libcuda.so.1" ]]; then
    echo "no CUDA driver here: the CPU variants run over a stand-in driver that reports no device ($stand_in)"
    # KvikIO (in Legate) reads through POSIX calls instead of GPUDirect Storage, which needs a driver.
    export LD_LIBRARY_PATH="$stand_in${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" KVIKIO_COMPAT_MODE=ON
    if ! start=$("$@" --list-tests 2>&1); then
      echo "$start"
      exit 1
    fi
  elif [[ "$start" == *"libcuda.so.1"* ]]; then
    echo "SKIPPED: no CUDA driver here (Legate needs libcuda.so.1)"
    exit 77
  else
    echo "$start"
    exit 1
  fi
fi
if [[ "$config" != *"--gpus 0"* ]] && ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIPPED: this configuration needs a GPU ($config)"
  exit 77
fi
LEGATE_CONFIG="$config" exec "$@"
