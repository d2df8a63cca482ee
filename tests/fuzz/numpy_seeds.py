"""Writes .npy seeds for fuzz_npy with NumPy itself (numpy_*): what numpy.save and
numpy.lib.format.write_array make for orders, byte orders and format versions xfuse's writer
does not. Usage: python3 tests/fuzz/numpy_seeds.py <directory> (scripts/fuzz.sh seeds)."""
import os
import sys

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
