#!/usr/bin/env bash
# On a GPU machine: weak then strong scaling of bench_scaling.cu and cupynumeric_scaling.py on
# 1, 2, 4 and 8 GPUs (as many as the machine has), xfuse and cuPyNumeric one after the other on
# each configuration, then the tables (scaling_table.py).
#
#   bench/legate/run_scaling.sh SITE BIN OUTDIR
#
# SITE: where pack_runtime.sh's archive was unpacked; BIN: the directory holding
# xfuse_bench_scaling (built with -DXFUSE_WITH_LEGATE=ON against the same legate wheel).
set -u
here="$(cd "$(dirname "$0")" && pwd)"
site="$1"; bin="$2"; out="$3"
mkdir -p "$out"
nccl=$(python3 -c "import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], 'lib'))" 2>/dev/null)
export LD_LIBRARY_PATH="$site/legate/lib64:$site/legate/lib64/legate/deps:$site/legate.libs:$site/cupynumeric/lib64:$site/nvidia_cupynumeric.libs:$site/stubs:${nccl:+$nccl:}/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
# No GPUDirect Storage; no NVLink multicast (NVLS), which can take a shared host's GPUs down.
export PYTHONPATH="$site" KVIKIO_COMPAT_MODE=ON NCCL_NVLS_ENABLE=0 PYTHONUNBUFFERED=1
gpus=$(nvidia-smi -L | wc -l)
{ date -u +%FT%TZ; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; nvidia-smi topo -m; } \
  | sed 's/\x1b\[[0-9;]*m//g' > "$out/device.txt"
: > "$out/scaling.md"
for mode in weak strong; do
  for g in 1 2 4 8; do
    (( g <= gpus )) || continue
    config="--gpus $g --cpus 1 --fbmem 60000 --sysmem 4000"
    echo "== $mode, $g GPUs: xfuse" | tee -a "$out/scaling.md"
    LEGATE_CONFIG="$config" timeout 300 "$bin/xfuse_bench_scaling" "$mode" 2>&1 | tail -n 40 | tee -a "$out/scaling.md"
    echo "== $mode, $g GPUs: cuPyNumeric" | tee -a "$out/scaling.md"
    LEGATE_CONFIG="$config" timeout 300 python3 "$here/cupynumeric_scaling.py" "$mode" 2>&1 | tail -n 40 | tee -a "$out/scaling.md"
  done
done
python3 "$here/scaling_table.py" "$out/scaling.md" | tee "$out/tables.md"
