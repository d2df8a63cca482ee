# Legate's C++ SDK, for xfuse::legate in the build tree (cmake/xfuse_legate.cmake) and in the
# installed package (the legate component, cmake/xfuseConfig.cmake.in, which installs this file).
# The SDK ships inside the `legate` Python package (pip install legate): XFUSE_LEGATE_DIR names the
# package's directory (.../site-packages/legate), or else XFUSE_LEGATE_PYTHON a Python that imports
# it (empty: the Python3 interpreter CMake finds). Sets XFUSE_LEGATE_LINK and
# XFUSE_LEGATE_LINK_OPTIONS, what a target on Legate links, or XFUSE_LEGATE_ERROR, saying why not.
# Legate's own package config needs CMake 3.26.4; with an older CMake (Debian 12 has 3.25) the same
# headers and libraries are imported by hand.
set(XFUSE_LEGATE_ERROR "")
if(NOT XFUSE_LEGATE_DIR)
  if(NOT XFUSE_LEGATE_PYTHON)
    find_package(Python3 QUIET COMPONENTS Interpreter)
    set(XFUSE_LEGATE_PYTHON "${Python3_EXECUTABLE}")
  endif()
  if(XFUSE_LEGATE_PYTHON)
    execute_process(COMMAND "${XFUSE_LEGATE_PYTHON}" -c "import legate, os; print(os.path.dirname(legate.__file__))"
                    OUTPUT_VARIABLE XFUSE_LEGATE_DIR OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  endif()
endif()
if(NOT EXISTS "${XFUSE_LEGATE_DIR}/lib64/liblegate.so")
  string(CONCAT XFUSE_LEGATE_ERROR "no Legate C++ SDK in the legate package of XFUSE_LEGATE_PYTHON=\"${XFUSE_LEGATE_PYTHON}\" "
              "or XFUSE_LEGATE_DIR=\"${XFUSE_LEGATE_DIR}\" (install it with `python3 -m pip install legate`, or set XFUSE_LEGATE_PYTHON)")
  return()
endif()

# The libraries Legate's libraries load: NCCL (from the CUDA toolkit's directory, the system, or
# the nvidia-nccl-cu13 package next to legate), HDF5 and cuFile (in legate.libs), the CUDA driver.
find_library(XFUSE_NCCL_LIBRARY NAMES nccl libnccl.so.2
             HINTS ${CUDAToolkit_LIBRARY_DIR} "${XFUSE_LEGATE_DIR}/../nvidia/nccl/lib" "${XFUSE_LEGATE_DIR}/../nvidia/cu13/lib")
if(NOT XFUSE_NCCL_LIBRARY)
  string(CONCAT XFUSE_LEGATE_ERROR "NCCL (libnccl.so.2), which Legate links, was not found "
              "(Debian/Ubuntu: libnccl2, or `python3 -m pip install nvidia-nccl-cu13`)")
  return()
endif()
get_filename_component(_xfuse_nccl_dir "${XFUSE_NCCL_LIBRARY}" DIRECTORY)
set(_xfuse_legate_library_dirs "${XFUSE_LEGATE_DIR}/lib64" "${XFUSE_LEGATE_DIR}/lib64/legate/deps"
    "${XFUSE_LEGATE_DIR}/../legate.libs" "${_xfuse_nccl_dir}")

if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.26.4)
  # The package also holds the configs of Realm and Legion, which legate's config looks for.
  # (Set each time, so that another XFUSE_LEGATE_PYTHON takes its own.)
  set(Realm_DIR "${XFUSE_LEGATE_DIR}/lib64/cmake/realm" CACHE PATH "Realm's package config (in the legate package)" FORCE)
  set(Legion_DIR "${XFUSE_LEGATE_DIR}/share/Legion/cmake" CACHE PATH "Legion's package config (in the legate package)" FORCE)
  find_package(legate CONFIG QUIET HINTS "${XFUSE_LEGATE_DIR}/lib64/cmake/legate" NO_DEFAULT_PATH)
  if(NOT TARGET legate::legate)
    set(XFUSE_LEGATE_ERROR "legate's package config in ${XFUSE_LEGATE_DIR}/lib64/cmake/legate did not load")
    return()
  endif()
  set(_xfuse_legate_sdk legate::legate)
else()
  if(NOT TARGET xfuse::legate_sdk)
    add_library(xfuse::legate_sdk INTERFACE IMPORTED)
    target_include_directories(xfuse::legate_sdk SYSTEM INTERFACE "${XFUSE_LEGATE_DIR}/include/legate"
                                                                  "${XFUSE_LEGATE_DIR}/include/legate/deps")
    target_compile_definitions(xfuse::legate_sdk INTERFACE LIBCUDACXX_ENABLE_HOST_NVFP16=1)
    target_link_libraries(xfuse::legate_sdk INTERFACE "${XFUSE_LEGATE_DIR}/lib64/liblegate.so"
                          "${XFUSE_LEGATE_DIR}/lib64/liblegion-legate.so" "${XFUSE_LEGATE_DIR}/lib64/librealm-legate.so")
  endif()
  set(_xfuse_legate_sdk xfuse::legate_sdk)
endif()

# The CUDA driver library links (the toolkit's stub where no driver is installed); programs run
# where a driver is present. Legate's library directories go into the programs' run path.
set(XFUSE_LEGATE_LINK xfuse::linalg ${_xfuse_legate_sdk} CUDA::cuda_driver CUDA::cublas)
string(REPLACE ";" ":" _xfuse_rpath "${_xfuse_legate_library_dirs}")
set(XFUSE_LEGATE_LINK_OPTIONS "LINKER:-rpath-link,${_xfuse_rpath}" "LINKER:-rpath,${_xfuse_rpath}")
unset(_xfuse_nccl_dir)
unset(_xfuse_legate_library_dirs)
unset(_xfuse_legate_sdk)
unset(_xfuse_rpath)
