# The header-only target xfuse::xfuse, shared by the build tree and the installed package.
# It carries what users need: C++20 / CUDA 20, extended lambdas, relaxed constexpr, the CUDA
# runtime, and CCCL's include directory (CUDA 13 keeps it under include/cccl) for host compilers.
if(NOT TARGET xfuse)
  add_library(xfuse INTERFACE)
  add_library(xfuse::xfuse ALIAS xfuse)
  if(DEFINED xfuse_SOURCE_DIR)
    target_include_directories(xfuse INTERFACE $<BUILD_INTERFACE:${xfuse_SOURCE_DIR}/include>
                                               $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  endif()
  # CMake 3.25 does not know nvcc 13's C++20 dialect (and would apply cxx_std_20 to CUDA sources
  # too); there the flag is passed directly.
  if("cuda_std_20" IN_LIST CMAKE_CUDA_COMPILE_FEATURES)
    target_compile_features(xfuse INTERFACE cxx_std_20 cuda_std_20)
  else()
    target_compile_options(xfuse INTERFACE $<$<COMPILE_LANGUAGE:CUDA,CXX>:-std=c++20>)
  endif()
  target_compile_options(xfuse INTERFACE $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda --expt-relaxed-constexpr>)
  foreach(dir IN LISTS CUDAToolkit_INCLUDE_DIRS)
    if(EXISTS "${dir}/cccl")
      target_include_directories(xfuse SYSTEM INTERFACE "$<BUILD_INTERFACE:${dir}/cccl>")
      set(_xfuse_cccl "${dir}/cccl")
    endif()
  endforeach()
  target_include_directories(xfuse SYSTEM INTERFACE "$<BUILD_INTERFACE:${CUDAToolkit_INCLUDE_DIRS}>")
  target_link_libraries(xfuse INTERFACE CUDA::cudart)
endif()

# xfuse::linalg: what <xfuse/linalg.hpp> links, cuBLAS and cuSOLVER for device arrays and OpenBLAS
# (CBLAS and LAPACK) for host arrays (Debian/Ubuntu: libopenblas-dev, installed by scripts/deps.sh).
if(NOT TARGET xfuse_linalg)
  add_library(xfuse_linalg INTERFACE)
  add_library(xfuse::linalg ALIAS xfuse_linalg)
  find_library(XFUSE_OPENBLAS_LIBRARY NAMES openblas REQUIRED)
  target_link_libraries(xfuse_linalg INTERFACE xfuse CUDA::cublas CUDA::cusolver ${XFUSE_OPENBLAS_LIBRARY})
endif()
