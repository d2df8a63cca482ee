# xfuse::legate: distributed arrays on Legate (<xfuse/legate.hpp>). Legate's C++ SDK ships inside
# the `legate` Python package (pip install legate): XFUSE_LEGATE_PYTHON names a Python that has it,
# and its package config under legate/lib64/cmake/legate is used. That config needs CMake 3.26.4;
# with an older CMake (Debian 12 has 3.25) the same headers and libraries are imported by hand.
set(XFUSE_LEGATE_PYTHON "" CACHE FILEPATH "A Python interpreter with the legate package (pip install legate)")
if(NOT XFUSE_LEGATE_PYTHON)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  set(XFUSE_LEGATE_PYTHON "${Python3_EXECUTABLE}")
endif()
execute_process(COMMAND "${XFUSE_LEGATE_PYTHON}" -c "import legate, os; print(os.path.dirname(legate.__file__))"
                OUTPUT_VARIABLE XFUSE_LEGATE_DIR OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE found_legate)
if(NOT found_legate EQUAL 0 OR NOT EXISTS "${XFUSE_LEGATE_DIR}/lib64/liblegate.so")
  message(FATAL_ERROR "XFUSE_WITH_LEGATE: ${XFUSE_LEGATE_PYTHON} has no legate package with its C++ SDK "
                      "(install it with `python3 -m pip install legate`, or set XFUSE_LEGATE_PYTHON)")
endif()
message(STATUS "xfuse::legate: Legate from ${XFUSE_LEGATE_DIR}")

# The libraries Legate's libraries load: NCCL (from the CUDA toolkit's directory, the system, or
# the nvidia-nccl-cu13 package next to legate), HDF5 and cuFile (in legate.libs), the CUDA driver.
find_library(XFUSE_NCCL_LIBRARY NAMES nccl libnccl.so.2
             HINTS ${CUDAToolkit_LIBRARY_DIR} "${XFUSE_LEGATE_DIR}/../nvidia/nccl/lib" "${XFUSE_LEGATE_DIR}/../nvidia/cu13/lib")
if(NOT XFUSE_NCCL_LIBRARY)
  message(FATAL_ERROR "XFUSE_WITH_LEGATE: NCCL (libnccl.so.2), which Legate links, was not found "
                      "(Debian/Ubuntu: libnccl2, or `python3 -m pip install nvidia-nccl-cu13`)")
endif()
get_filename_component(nccl_dir "${XFUSE_NCCL_LIBRARY}" DIRECTORY)
set(XFUSE_LEGATE_LIBRARY_DIRS "${XFUSE_LEGATE_DIR}/lib64" "${XFUSE_LEGATE_DIR}/lib64/legate/deps"
    "${XFUSE_LEGATE_DIR}/../legate.libs" "${nccl_dir}")

if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.26.4)
  # The package also holds the configs of Realm and Legion, which legate's config looks for.
  # (Set each configure, so that another XFUSE_LEGATE_PYTHON takes its own.)
  set(Realm_DIR "${XFUSE_LEGATE_DIR}/lib64/cmake/realm" CACHE PATH "Realm's package config (in the legate package)" FORCE)
  set(Legion_DIR "${XFUSE_LEGATE_DIR}/share/Legion/cmake" CACHE PATH "Legion's package config (in the legate package)" FORCE)
  find_package(legate CONFIG REQUIRED HINTS "${XFUSE_LEGATE_DIR}/lib64/cmake/legate" NO_DEFAULT_PATH)
  set(legate_sdk legate::legate)
else()
  add_library(xfuse_legate_sdk INTERFACE)
  target_include_directories(xfuse_legate_sdk SYSTEM INTERFACE "${XFUSE_LEGATE_DIR}/include/legate"
                                                               "${XFUSE_LEGATE_DIR}/include/legate/deps")
  target_compile_definitions(xfuse_legate_sdk INTERFACE LIBCUDACXX_ENABLE_HOST_NVFP16=1)
  target_link_libraries(xfuse_legate_sdk INTERFACE "${XFUSE_LEGATE_DIR}/lib64/liblegate.so"
                        "${XFUSE_LEGATE_DIR}/lib64/liblegion-legate.so" "${XFUSE_LEGATE_DIR}/lib64/librealm-legate.so")
  set(legate_sdk xfuse_legate_sdk)
endif()

add_library(xfuse_legate INTERFACE)
add_library(xfuse::legate ALIAS xfuse_legate)
# The CUDA driver library links (the toolkit's stub where no driver is installed); programs run
# where a driver is present.
target_link_libraries(xfuse_legate INTERFACE xfuse::linalg ${legate_sdk} CUDA::cuda_driver CUDA::cublas)
string(REPLACE ";" ":" rpath_link "${XFUSE_LEGATE_LIBRARY_DIRS}")
target_link_options(xfuse_legate INTERFACE "LINKER:-rpath-link,${rpath_link}" "LINKER:-rpath,${rpath_link}")
