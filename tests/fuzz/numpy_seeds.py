"""Writes .npy seeds for fuzz_npy with NumPy itself (numpy_*): what numpy.save and
numpy.lib.format.write_array make for orders, byte orders and format versions xfuse's writer
does not; and, given a second directory, .npz seeds for fuzz_npz: numpy.savez and
numpy.savez_compressed archives, and members that share a name (Python's zipfile writes them).
Usage: python3 tests/fuzz/numpy_seeds.py <npy directory> [<npz directory>] (scripts/fuzz.sh seeds)."""
import io
import os
import sys
import warnings
import zipfile

import numpy as np
from numpy.lib import format as npy_format

out = sys.argv[1]


def write(name, a, version=None):
    with open(os.path.join(out, name), "wb") as f:
        npy_format.write_array(f, a, version=version)


write("numpy_f4_3.npy", np.arange(3, dtype="<f4"))
write("numpy_be_i2_fortran_2x3.npy", np.asfortranarray(np.arange(6, dtype=">i2").reshape(2, 3)))
write("numpy_be_f8_scalar.npy", np.array(-2.5, dtype=">f8"))
write("numpy_c16_v2_2.npy", np.array([1 + 2j, -3j], dtype="<c16"), version=(2, 0))
write("numpy_u4_v3_fortran_2x1x2.npy", np.asfortranarray(np.arange(4, dtype="<u4").reshape(2, 1, 2)), version=(3, 0))
write("numpy_b1_2x2.npy", np.array([[True, False], [False, True]]))

if len(sys.argv) > 2:
    npz_out = sys.argv[2]
    a = np.arange(6, dtype="<f4").reshape(2, 3) / 4
    b = np.array([1, -2, 3], dtype="<i8")
    np.savez(os.path.join(npz_out, "numpy_stored.npz"), a, weights=b)
    np.savez_compressed(os.path.join(npz_out, "numpy_deflated.npz"), a, weights=b,
                        c=np.array([[1 + 2j, -3j]], dtype="<c16"), h=np.array([0.5, -2], dtype="<f2"))
    np.savez(os.path.join(npz_out, "numpy_empty_and_scalar.npz"), e=np.zeros((0, 3), dtype="<i4"), s=np.array(True))

    def npy_bytes(x):
        f = io.BytesIO()
        np.save(f, x)
        return f.getvalue()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of the repeated name
        with zipfile.ZipFile(os.path.join(npz_out, "zipfile_repeated_names.npz"), "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("x.npy", npy_bytes(np.array([1, 2], dtype="<i4")))
            z.writestr("x.npy", npy_bytes(np.array([3, 4], dtype="<i4")))
            z.writestr("y", npy_bytes(np.array([5.5], dtype=">f8")))

