# cuFFTDx, NVIDIA's device-side FFT (the MathDx headers; NVIDIA's SDK licence, installed by the user,
# never part of xfuse), for transforms in xfuse's own kernels (include/xfuse/fft/line_kernel.cuh).
# Found in XFUSE_MATHDX_DIR (a directory holding include/cufftdx.hpp), else in the nvidia-mathdx
# pip package of XFUSE_MATHDX_PYTHON (empty: the Python3 interpreter CMake finds).
# XFUSE_WITH_MATHDX: AUTO (on when found), ON (an error when not found) or OFF.
# Found, xfuse::fft in the build tree defines XFUSE_WITH_MATHDX and adds the headers.
set(XFUSE_WITH_MATHDX AUTO CACHE STRING "Transforms in xfuse's own kernels on cuFFTDx: AUTO (when found), ON or OFF")
set_property(CACHE XFUSE_WITH_MATHDX PROPERTY STRINGS AUTO ON OFF)
set(XFUSE_MATHDX_FOUND FALSE)
if(NOT XFUSE_WITH_MATHDX STREQUAL "OFF")
  if(NOT XFUSE_MATHDX_DIR)
    if(NOT XFUSE_MATHDX_PYTHON)
      find_package(Python3 QUIET COMPONENTS Interpreter)
      set(XFUSE_MATHDX_PYTHON "${Python3_EXECUTABLE}")
    endif()
    if(XFUSE_MATHDX_PYTHON)
      execute_process(COMMAND "${XFUSE_MATHDX_PYTHON}" -c "import nvidia.mathdx as m; print(list(m.__path__)[0])"
                      OUTPUT_VARIABLE XFUSE_MATHDX_DIR OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    endif()
  endif()
  if(EXISTS "${XFUSE_MATHDX_DIR}/include/cufftdx.hpp")
    set(XFUSE_MATHDX_FOUND TRUE)
    target_include_directories(xfuse_fft SYSTEM INTERFACE "$<BUILD_INTERFACE:${XFUSE_MATHDX_DIR}/include>")
    target_compile_definitions(xfuse_fft INTERFACE "$<BUILD_INTERFACE:XFUSE_WITH_MATHDX=1>")
    message(STATUS "xfuse: cuFFTDx from ${XFUSE_MATHDX_DIR}: covered one-axis transforms run in xfuse's own kernels")
  elseif(XFUSE_WITH_MATHDX STREQUAL "ON")
    message(FATAL_ERROR "xfuse: XFUSE_WITH_MATHDX=ON but no cuFFTDx headers in XFUSE_MATHDX_DIR=\"${XFUSE_MATHDX_DIR}\" "
                        "or the nvidia-mathdx package of XFUSE_MATHDX_PYTHON=\"${XFUSE_MATHDX_PYTHON}\" "
                        "(install it with `python3 -m pip install nvidia-mathdx`)")
  endif()
endif()
