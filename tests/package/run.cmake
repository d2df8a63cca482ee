# Installs xfuse into a scratch prefix, then configures, builds and runs a consumer project that
# finds it with find_package(xfuse CONFIG): xfuse::xfuse alone (with BLAS hidden), and the linalg
# component, whose program solves a system on host arrays. Run by CTest (cmake -P).
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
