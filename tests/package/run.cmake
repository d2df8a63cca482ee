# Installs xfuse into a scratch prefix, then configures, builds and runs a consumer project that
# finds it with find_package(xfuse CONFIG): xfuse::xfuse alone (with BLAS hidden), the linalg
# component, whose program solves a system on host arrays, and the fft component, whose program
# transforms one; then builds the first program again with plain nvcc and pkg-config's flags, as
# a Makefile would. Run by CTest (cmake -P).
set(prefix "${BINARY_DIR}/prefix")
file(REMOVE_RECURSE "${BINARY_DIR}")
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGN}\n${out}\n${err}")
  endif()
  message("${out}")
endfunction()
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${BINARY_DIR}/xfuse" -DXFUSE_BUILD_TESTS=OFF -DXFUSE_BUILD_EXAMPLES=OFF
    -DCMAKE_INSTALL_PREFIX=${prefix})
run(${CMAKE_COMMAND} --install "${BINARY_DIR}/xfuse")
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/package/consumer" -B "${BINARY_DIR}/consumer" -G Ninja
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHS})
run(${CMAKE_COMMAND} --build "${BINARY_DIR}/consumer")
run("${BINARY_DIR}/consumer/consumer")
run("${BINARY_DIR}/consumer/consumer_linalg")
run("${BINARY_DIR}/consumer/consumer_fft")

# A Makefile build: nvcc with `pkg-config --cflags --libs xfuse` and nothing else.
find_program(PKG_CONFIG pkg-config)
if(NOT PKG_CONFIG)
  message("pkg-config not found: the Makefile build is not checked")
  return()
endif()
file(GLOB pc_files "${prefix}/lib*/pkgconfig/xfuse.pc" "${prefix}/lib/*/pkgconfig/xfuse.pc")
list(GET pc_files 0 pc_file)
get_filename_component(pc_dir "${pc_file}" DIRECTORY)
set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
execute_process(COMMAND ${PKG_CONFIG} --cflags --libs xfuse OUTPUT_VARIABLE pc_flags RESULT_VARIABLE rc
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config --cflags --libs xfuse failed")
endif()
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
if(CUDA_ARCHS MATCHES "^([0-9]+)-virtual$")
  set(arch "--generate-code=arch=compute_${CMAKE_MATCH_1},code=compute_${CMAKE_MATCH_1}")
elseif(CUDA_ARCHS MATCHES "^([0-9]+)")
  set(arch "-arch=sm_${CMAKE_MATCH_1}")
else()
  set(arch "-arch=${CUDA_ARCHS}")
endif()
run(${NVCC} -std=c++20 --extended-lambda --expt-relaxed-constexpr ${arch} ${pc_flags}
    "${SOURCE_DIR}/tests/package/consumer/main.cu" -o "${BINARY_DIR}/consumer_pkgconfig")
run("${BINARY_DIR}/consumer_pkgconfig")
