# The header-only target xfuse::xfuse, shared by the build tree and the installed package.
# It carries what users need: C++20 / CUDA 20, extended lambdas, the CUDA runtime, and CCCL's
# include directory (CUDA 13 keeps it under include/cccl) for host compilers. Device code calls only
# __host__ __device__ functions, so no --expt-relaxed-constexpr: what the target sets is what the
# README's nvcc line sets.
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
  target_compile_options(xfuse INTERFACE $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda>)
  foreach(dir IN LISTS CUDAToolkit_INCLUDE_DIRS)
    if(EXISTS "${dir}/cccl")
      target_include_directories(xfuse SYSTEM INTERFACE "$<BUILD_INTERFACE:${dir}/cccl>")
      set(_xfuse_cccl "${dir}/cccl")
    endif()
  endforeach()
  target_include_directories(xfuse SYSTEM INTERFACE "$<BUILD_INTERFACE:${CUDAToolkit_INCLUDE_DIRS}>")
  target_link_libraries(xfuse INTERFACE CUDA::cudart)
endif()

# xfuse::linalg: what <xfuse/linalg.hpp> links: cuBLAS and cuSOLVER for device arrays, and a BLAS
# with CBLAS and a LAPACK (LP64) for host arrays, found by FindBLAS and FindLAPACK for the vendor
# XFUSE_BLAS_VENDOR (BLA_VENDOR's names; default OpenBLAS, Debian/Ubuntu: libopenblas-dev, installed
# by scripts/deps.sh). The installed package finds the same vendor again on the user's machine
# (find_package(xfuse CONFIG REQUIRED COMPONENTS linalg), cmake/xfuseConfig.cmake.in). Without a
# BLAS, only xfuse::linalg's users fail to build; tests, examples and benchmarks need it.
if(NOT TARGET xfuse_linalg)
  if(DEFINED BLA_VENDOR)
    set(_xfuse_blas_vendor "${BLA_VENDOR}")
  else()
    set(_xfuse_blas_vendor OpenBLAS)
  endif()
  set(XFUSE_BLAS_VENDOR "${_xfuse_blas_vendor}" CACHE STRING
      "BLA_VENDOR of the BLAS and LAPACK behind xfuse::linalg for host arrays (recorded in the installed package)")
  unset(_xfuse_blas_vendor)
  # XFUSE_BLAS_LAPACK_LINK: what they link, for the pkg-config file xfuse-linalg.pc (empty if not found).
  block(SCOPE_FOR VARIABLES PROPAGATE XFUSE_BLAS_LAPACK_LINK)
    set(BLA_VENDOR "${XFUSE_BLAS_VENDOR}")
    set(BLA_SIZEOF_INTEGER 4)
    if(XFUSE_BUILD_TESTS OR XFUSE_BUILD_EXAMPLES OR XFUSE_BUILD_BENCHMARKS)
      find_package(BLAS REQUIRED)
      find_package(LAPACK REQUIRED)
    else()
      find_package(BLAS QUIET)
      find_package(LAPACK QUIET)
      if(NOT BLAS_FOUND OR NOT LAPACK_FOUND)
        message(STATUS "xfuse::linalg: no BLAS and LAPACK of vendor ${XFUSE_BLAS_VENDOR} found "
                       "(XFUSE_BLAS_VENDOR; Debian/Ubuntu: libopenblas-dev); targets that link xfuse::linalg will not build")
      endif()
    endif()
    set(XFUSE_BLAS_LAPACK_LINK "")
    if(BLAS_FOUND AND LAPACK_FOUND)
      set(XFUSE_BLAS_LAPACK_LINK ${LAPACK_LINKER_FLAGS} ${LAPACK_LIBRARIES} ${BLAS_LINKER_FLAGS} ${BLAS_LIBRARIES})
      list(REMOVE_DUPLICATES XFUSE_BLAS_LAPACK_LINK)
    endif()
  endblock()
  add_library(xfuse_linalg INTERFACE)
  add_library(xfuse::linalg ALIAS xfuse_linalg)
  set_target_properties(xfuse_linalg PROPERTIES EXPORT_NAME linalg)
  target_link_libraries(xfuse_linalg INTERFACE xfuse CUDA::cublas CUDA::cublasLt CUDA::cusolver BLAS::BLAS LAPACK::LAPACK)
endif()

# xfuse::fft: what <xfuse/fft.hpp> links: cuFFT for device arrays (the host transform is xfuse's
# own), and NVRTC, which compiles the element-wise work fused into cuFFT's loads and stores to
# LTO-IR (cuFFT loads nvJitLink itself when it plans with such callbacks).
if(NOT TARGET xfuse_fft)
  add_library(xfuse_fft INTERFACE)
  add_library(xfuse::fft ALIAS xfuse_fft)
  set_target_properties(xfuse_fft PROPERTIES EXPORT_NAME fft)
  # NVRTC's library itself: FindCUDAToolkit's CUDA::nvrtc also links the driver (libcuda), which
  # NVRTC does not need and without which a program could then not start on a machine with no GPU
  # driver (host arrays only). Evaluated where the target is used, installed or not.
  target_link_libraries(xfuse_fft INTERFACE xfuse CUDA::cufft "$<TARGET_FILE:CUDA::nvrtc>")
endif()
