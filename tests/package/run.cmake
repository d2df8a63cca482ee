# The installed package as users get it: xfuse is configured for one prefix (one that is never
# created) and installed into another with `cmake --install <build> --prefix <prefix>`, the way
# most installs go; everything below uses that prefix only.
# - CMake: the consumer project (consumer/): find_package(xfuse CONFIG) alone, with BLAS hidden
#   (main.cu); the linalg component (linalg.cpp solves a system on host arrays) and the fft
#   component (fft.cpp transforms one); then a project whose CMakeLists.txt is README.md's "Using
#   it" block verbatim, with main.cu as its app.cu.
# - pkg-config: README.md's nvcc line verbatim (a shell in a folder with app.cu), and the linalg and
#   fft programs built by the host compiler with xfuse-linalg's and xfuse-fft's flags.
# - Legate: with a Python that has the legate package (LEGATE_PYTHON; by hand, by default the one
#   scripts/test.sh installs into build-test/legate-venv), xfuse is configured with it and a project
#   with COMPONENTS legate builds consumer_legate/dist.cu; without one that part is skipped, saying so.
# Programs run where they run without a GPU: main.cu evaluates on host arrays, and on the device
# only where there is one; the linalg and fft programs use host arrays only. The Legate program is
# built, not run (Legate needs the CUDA driver to start); ldd checks it finds its libraries.
# Run by CTest: cmake -DSOURCE_DIR=... -DBINARY_DIR=... -DCUDA_ARCHS=90 -DNVCC=nvcc
#   [-DCXX=c++] [-DPYTHON=python3] [-DLEGATE_PYTHON=...] -P run.cmake
set(prefix "${BINARY_DIR}/prefix")
set(configured_prefix "${BINARY_DIR}/configured-prefix")
set(consumer "${SOURCE_DIR}/tests/package/consumer")
file(REMOVE_RECURSE "${BINARY_DIR}")
file(MAKE_DIRECTORY "${BINARY_DIR}")
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGN}\n${out}\n${err}")
  endif()
  message("${out}")
endfunction()
if(NOT CXX)
  find_program(CXX NAMES c++ g++ clang++ REQUIRED)
endif()
if(NOT PYTHON)
  find_program(PYTHON NAMES python3 REQUIRED)
endif()
if(NOT DEFINED LEGATE_PYTHON AND EXISTS "${SOURCE_DIR}/build-test/legate-venv/bin/python")
  set(LEGATE_PYTHON "${SOURCE_DIR}/build-test/legate-venv/bin/python")
endif()
if(LEGATE_PYTHON)
  execute_process(COMMAND "${LEGATE_PYTHON}" -c "import legate" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT rc EQUAL 0)
    message("${LEGATE_PYTHON} has no legate package")
    set(LEGATE_PYTHON "")
  endif()
endif()
set(legate_args "")
if(LEGATE_PYTHON)
  set(legate_args -DXFUSE_WITH_LEGATE=ON "-DXFUSE_LEGATE_PYTHON=${LEGATE_PYTHON}")
endif()

# ---- install: configured for one prefix, installed into another.
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${BINARY_DIR}/xfuse" -DXFUSE_BUILD_TESTS=OFF -DXFUSE_BUILD_EXAMPLES=OFF
    "-DCMAKE_INSTALL_PREFIX=${configured_prefix}" ${legate_args})
run(${CMAKE_COMMAND} --install "${BINARY_DIR}/xfuse" --prefix "${prefix}")
if(EXISTS "${configured_prefix}")
  message(FATAL_ERROR "cmake --install --prefix ${prefix} wrote into the configured prefix ${configured_prefix}")
endif()

# ---- CMake: the consumer project, then README.md's block.
run(${CMAKE_COMMAND} -S "${consumer}" -B "${BINARY_DIR}/consumer" -G Ninja
    "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHS}")
run(${CMAKE_COMMAND} --build "${BINARY_DIR}/consumer")
run("${BINARY_DIR}/consumer/consumer")
run("${BINARY_DIR}/consumer/consumer_linalg")
run("${BINARY_DIR}/consumer/consumer_fft")

set(readme_tool "${SOURCE_DIR}/scripts/doc_blocks.py")
execute_process(COMMAND "${PYTHON}" "${readme_tool}" --print "README.md#using-it:cmake"
                OUTPUT_VARIABLE readme_cmake RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "README.md has no CMake block under \"Using it\"")
endif()
set(app "${BINARY_DIR}/readme_cmake")
file(MAKE_DIRECTORY "${app}")
if(NOT readme_cmake MATCHES "project\\(")  # what a CMakeLists.txt needs and the block may leave out
  set(readme_cmake "cmake_minimum_required(VERSION 3.25)\nproject(app LANGUAGES CXX CUDA)\n${readme_cmake}")
endif()
file(WRITE "${app}/CMakeLists.txt" "${readme_cmake}")
configure_file("${consumer}/main.cu" "${app}/app.cu" COPYONLY)
run(${CMAKE_COMMAND} -S "${app}" -B "${app}/build" -G Ninja "-DCMAKE_PREFIX_PATH=${prefix}"
    "-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHS}")
run(${CMAKE_COMMAND} --build "${app}/build")
run("${app}/build/app")

# ---- pkg-config, from the installed prefix alone.
find_program(PKG_CONFIG NAMES pkg-config pkgconf)
if(NOT PKG_CONFIG)
  message(FATAL_ERROR "pkg-config is needed to check README.md's pkg-config line (Debian/Ubuntu: pkgconf)")
endif()
file(GLOB pc_files "${prefix}/lib*/pkgconfig/xfuse.pc" "${prefix}/lib/*/pkgconfig/xfuse.pc")
list(GET pc_files 0 pc_file)
get_filename_component(pc_dir "${pc_file}" DIRECTORY)
foreach(pc IN ITEMS xfuse xfuse-linalg xfuse-fft)
  file(READ "${pc_dir}/${pc}.pc" text)
  string(FIND "${text}" "prefix=\${pcfiledir}" relocatable)
  if(text MATCHES "configured-prefix" OR (pc STREQUAL "xfuse" AND relocatable EQUAL -1))
    message(FATAL_ERROR "${pc}.pc names the configured prefix, not its own place:\n${text}")
  endif()
endforeach()
set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
get_filename_component(nvcc_dir "${NVCC}" DIRECTORY)
set(ENV{PATH} "${nvcc_dir}:$ENV{PATH}")

# README.md's nvcc line, verbatim, in a folder holding app.cu.
execute_process(COMMAND "${PYTHON}" "${readme_tool}" --print "README.md#using-it:sh"
                OUTPUT_VARIABLE readme_sh RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT readme_sh MATCHES "pkg-config")
  message(FATAL_ERROR "README.md has no shell block with pkg-config under \"Using it\"")
endif()
set(app "${BINARY_DIR}/readme_sh")
file(MAKE_DIRECTORY "${app}")
configure_file("${consumer}/main.cu" "${app}/app.cu" COPYONLY)
message("README.md's block:\n${readme_sh}")
execute_process(COMMAND bash -euo pipefail -c "${readme_sh}" WORKING_DIRECTORY "${app}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "README.md's nvcc and pkg-config block failed:\n${out}\n${err}")
endif()
# It builds for sm_90: run where that code runs (no GPU: host arrays only; or a GPU of CUDA_ARCHS 90).
execute_process(COMMAND nvidia-smi -L RESULT_VARIABLE no_gpu OUTPUT_QUIET ERROR_QUIET)
if(no_gpu OR CUDA_ARCHS MATCHES "^90")
  run("${app}/a.out")
else()
  message("README.md's nvcc line builds for sm_90: its program is not run on this GPU (CUDA_ARCHS ${CUDA_ARCHS})")
endif()

# The host-compiled programs with the components' pkg-config files.
foreach(component IN ITEMS linalg fft)
  execute_process(COMMAND ${PKG_CONFIG} --cflags --libs xfuse-${component} OUTPUT_VARIABLE flags
                  RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config --cflags --libs xfuse-${component} failed")
  endif()
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run(${CXX} -std=c++20 "${consumer}/${component}.cpp" ${flags} -o "${BINARY_DIR}/pkgconfig_${component}")
  run("${BINARY_DIR}/pkgconfig_${component}")
endforeach()

# ---- Legate: COMPONENTS legate, the SDK found again from the Python xfuse was configured with.
if(NOT LEGATE_PYTHON)
  message("SKIPPED the legate component: no Python with the legate package "
          "(scripts/test.sh installs one into build-test/legate-venv; or pass -DLEGATE_PYTHON=)")
  return()
endif()
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/package/consumer_legate" -B "${BINARY_DIR}/consumer_legate" -G Ninja
    "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHS}")
run(${CMAKE_COMMAND} --build "${BINARY_DIR}/consumer_legate")
execute_process(COMMAND ldd "${BINARY_DIR}/consumer_legate/consumer_legate" OUTPUT_VARIABLE libs)
string(REGEX MATCHALL "[^\n]*not found" missing "${libs}")
list(FILTER missing EXCLUDE REGEX "libcuda\\.so")  # the driver: absent on machines without a GPU
if(missing)
  message(FATAL_ERROR "consumer_legate does not find its libraries:\n${missing}")
endif()
message("consumer_legate built; not run (Legate programs need the CUDA driver)")
