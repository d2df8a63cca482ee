// One test source for Catch2 v2 (Debian's 2.13) and v3 (Ubuntu 24.04, conda, vcpkg, or its
// amalgamated single header, which the sanitizer build uses): every name of Catch's namespace that
// a test needs is spelled here, once per version, and CTest checks that no other test source names
// it ("tests: Catch2 names only through the shim").
#pragma once

#if __has_include(<catch_amalgamated.hpp>)
#include <catch_amalgamated.hpp>
#define XF_CATCH3 1
#elif __has_include(<catch2/catch_test_macros.hpp>)
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

// XF_SKIP(message): the test case is reported as skipped (Catch2 v3's SKIP); v2 has no skipped
// state, so there it fails, saying why (never reported as passed).
#if XF_CATCH3
#define XF_CONTAINS(text) Catch::Matchers::ContainsSubstring(text)
#define XF_SKIP(message) SKIP(message)
// v2 declares Approx in the global namespace; v3 only as Catch::Approx.
using Catch::Approx;
#else
#define XF_CONTAINS(text) Catch::Contains(text)
#define XF_SKIP(message) FAIL("not run, and Catch2 v2 cannot report a skip: " << message)
#endif

// Runs the suite (the runner's main; Catch2 v2 declares its session there only).
#if XF_CATCH3 || defined(CATCH_CONFIG_RUNNER)
inline int xf_run_catch(int argc, char** argv) { return Catch::Session().run(argc, argv); }
#endif
