// One test source for Catch2 v2 (Debian's 2.13, used here and in CI) and v3 (the GPU machine).
#pragma once

#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_approx.hpp>
#include <catch2/catch_session.hpp>
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#define XF_CATCH3 1
#else
#include <catch2/catch.hpp>
#define XF_CATCH3 0
#endif

#if XF_CATCH3
#define XF_CONTAINS(text) Catch::Matchers::ContainsSubstring(text)
#else
#define XF_CONTAINS(text) Catch::Contains(text)
#endif
