// SPDX-License-Identifier: Apache-2.0
// Distributed arrays on Legate (target xfuse::legate): arrays split across the GPUs or CPUs of
// one or many nodes, where each fused statement, reduction and product is one Legate task that
// runs xfuse's kernels on the local pieces. Start Legate first (legate::start()) and finish it
// last (legate::finish()); launch with `legate --gpus N prog` or LEGATE_CONFIG (docs/guide.md).
#pragma once

#include "dist/array.hpp"
#include "dist/expr.hpp"
#include "dist/io.hpp"
#include "dist/lines.hpp"
#include "dist/matmul.hpp"
#include "dist/npy.hpp"
#include "dist/reduce.hpp"
#include "dist/scan.hpp"
#include "dist/sequence.hpp"
#include "dist/softmax.hpp"
#include "dist/statement.hpp"
