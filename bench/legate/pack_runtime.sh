#!/usr/bin/env bash
# Packs Legate and cuPyNumeric (their cp312 wheels) into one archive for a GPU machine that has
# Python 3.12, CUDA 13 and NCCL but no package registry, small enough to copy (about 55 MB):
#
#   bench/legate/pack_runtime.sh OUTDIR [SM]     # SM: the GPU generation kept (default 90)
#
# Unpack it on the GPU machine with `tar -C DIR -xJf OUTDIR/site.tar.xz` and run with
# PYTHONPATH=DIR and the library path that bench/legate/run_scaling.sh sets. What it changes:
#  - device code for other GPU generations is zeroed in the fat binaries (the driver loads only
#    the entries for the GPU's own generation; the zeros compress to nothing);
#  - copies of one library under several names become symbolic links; headers, CMake files and
#    static libraries are left out;
#  - cuFile (GPUDirect Storage), which aborts at load on machines without it, and cuTENSOR, which
#    cuPyNumeric links but none of the benchmarks uses, are replaced by libraries whose entry
#    points report "unavailable".
set -euo pipefail
out="$(mkdir -p "$1" && cd "$1" && pwd)"
sm="${2:-90}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
  --platform manylinux2014_x86_64 -d "$work/wheels" legate==26.6.1 nvidia-cupynumeric==26.6.1 opt_einsum cffi pycparser
site="$work/site"
mkdir -p "$site/stubs"
for w in "$work"/wheels/*.whl; do (cd "$site" && python3 -m zipfile -e "$w" .); done
cd "$site"
rm -rf cupynumeric/include cupynumeric/share cupynumeric/lib64/cmake cupynumeric/lib64/pkgconfig \
       cupynumeric/lib64/*.a cupynumeric/lib64/*.la legate/include legate/share legate/lib64/cmake \
       legate/lib64/legate/deps/*.a legate/tester legate/jupyter legate/_sphinxext cupynumeric/_sphinxext

# Zero the fat-binary entries of other GPU generations (fatbin layout: a 16-byte header with magic
# 0xBA55ED50, its header size and its size, then entries, each with its header size at byte 4, its
# payload size at byte 8 and its generation at byte 28).
python3 - "$sm" cupynumeric/lib64/libcupynumeric.so legate/lib64/liblegion-legate.so.1 <<'PY'
import struct, sys
keep = int(sys.argv[1])
for path in sys.argv[2:]:
    data = bytearray(open(path, "rb").read())
    shoff, = struct.unpack_from("<Q", data, 0x28)
    entsize, count, names = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * entsize) for i in range(count)]
    strings = headers[names][4]
    section = {data[strings + h[0]:data.index(b"\0", strings + h[0])].decode(): (h[4], h[5]) for h in headers}
    begin, size = section[".nv_fatbin"]
    pos, end, zeroed = begin, begin + size, 0
    while pos + 16 <= end:
        magic, _, header_size, fat_size = struct.unpack_from("<IHHQ", data, pos)
        if magic != 0xBA55ED50:
            pos += 8
            continue
        entry, stop = pos + header_size, pos + header_size + fat_size
        while entry < stop:
            _, _, entry_header, payload = struct.unpack_from("<HHIQ", data, entry)
            arch, = struct.unpack_from("<I", data, entry + 28)
            if arch != keep:
                data[entry + entry_header:entry + entry_header + payload] = bytes(payload)
                zeroed += payload
            entry += entry_header + payload
        pos = stop
    open(path, "wb").write(data)
    print(f"{path}: {zeroed} bytes of other GPU generations zeroed")
PY

# One file per library, the other names as links.
relink() { local dir=$1 real=$2; shift 2; for name in "$@"; do rm -f "$dir/$name"; ln -s "$real" "$dir/$name"; done; }
relink legate/lib64 liblegate.so.26.06.00 liblegate.so
relink legate/lib64 liblegion-legate.so.1 liblegion-legate.so
relink legate/lib64 librealm-legate.so.25.6.1 librealm-legate.so.25 librealm-legate.so
relink legate/lib64/legate/deps libhdf5_vfd_gds.so.1.0.2 libhdf5_vfd_gds.so.1
relink cupynumeric/lib64 libopenblas.so.0.3 libopenblas.so.0 libopenblas.so
relink cupynumeric/lib64 libtblis.so.0.0.0 libtblis.so.0 libtblis.so
relink cupynumeric/lib64 libtci.so.0.0.0 libtci.so.0 libtci.so

# Stand-ins. cuFile: every call reports the driver as not initialised (5001).
cufile=$(cd legate.libs && ls libcufile-*.so*)
cat > "$work/cufile.c" <<'C'
typedef struct { int err; int cu_err; } CUfileError_t;
CUfileError_t cuFileDriverOpen(void) { CUfileError_t e = {5001, 0}; return e; }
CUfileError_t cuFileHandleRegister(void* h, void* d) { (void)h; (void)d; CUfileError_t e = {5001, 0}; return e; }
void cuFileHandleDeregister(void* h) { (void)h; }
long cuFileRead(void* h, void* b, unsigned long n, long o, long d) { (void)h; (void)b; (void)n; (void)o; (void)d; return -5001; }
long cuFileWrite(void* h, const void* b, unsigned long n, long o, long d) { (void)h; (void)b; (void)n; (void)o; (void)d; return -5001; }
C
gcc -shared -fPIC -o "legate.libs/$cufile" "$work/cufile.c" -Wl,-soname,"$cufile"
# cuTENSOR: the versioned entry points cuPyNumeric imports, each returning NOT_SUPPORTED (15).
nm -D --undefined-only cupynumeric/lib64/libcupynumeric.so | awk '/@libcutensor/ {print $2}' | python3 -c '
import sys
by = {}
for line in sys.stdin:
    name, version = line.strip().split("@")
    by.setdefault(version, []).append(name)
with open(sys.argv[1], "w") as c, open(sys.argv[2], "w") as m:
    previous = ""
    for version in sorted(by, key=lambda v: [int(x) for x in v.split(".")[1:]]):
        for name in by[version]:
            if name.startswith("CUTENSOR_"): c.write(f"const void* {name} = 0;\n")
            elif name == "cutensorGetErrorString": c.write(f"const char* {name}(int s) {{ (void)s; return \"cuTENSOR is unavailable\"; }}\n")
            else: c.write(f"int {name}() {{ return 15; }}\n")
        names = "; ".join(by[version])
        m.write(f"{version} {{ global: {names}; }} {previous};\n".replace(" ;", ";"))
        previous = version
' "$work/cutensor.c" "$work/cutensor.map"
gcc -shared -fPIC -o stubs/libcutensor.so.2 "$work/cutensor.c" -Wl,--version-script="$work/cutensor.map" -Wl,-soname,libcutensor.so.2
tar -C "$site" -cf - . | xz -T0 -7 > "$out/site.tar.xz"
ls -l "$out/site.tar.xz"
