// SPDX-License-Identifier: Apache-2.0
// Order statistics: quantile, percentile and median (NumPy's "linear" method; a NaN in a line makes
// its result NaN), and nanquantile, nanpercentile and nanmedian (NaN left out).
#pragma once

#include "sort/quantile.hpp"
#include "sort/nan_quantile.hpp"
