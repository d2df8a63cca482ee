# xfuse::legate in the build tree (XFUSE_WITH_LEGATE): distributed arrays on Legate
# (<xfuse/legate.hpp>), on the Legate C++ SDK of the `legate` Python package that
# XFUSE_LEGATE_PYTHON imports (or of XFUSE_LEGATE_DIR), found by cmake/xfuse_legate_sdk.cmake. The
# installed package finds it again in its legate component (default: this XFUSE_LEGATE_PYTHON).
set(XFUSE_LEGATE_PYTHON "" CACHE FILEPATH "A Python interpreter with the legate package (pip install legate)")
include(${CMAKE_CURRENT_LIST_DIR}/xfuse_legate_sdk.cmake)
if(XFUSE_LEGATE_ERROR)
  message(FATAL_ERROR "XFUSE_WITH_LEGATE: ${XFUSE_LEGATE_ERROR}")
endif()
message(STATUS "xfuse::legate: Legate from ${XFUSE_LEGATE_DIR}")

add_library(xfuse_legate INTERFACE)
add_library(xfuse::legate ALIAS xfuse_legate)
target_link_libraries(xfuse_legate INTERFACE ${XFUSE_LEGATE_LINK})
target_link_options(xfuse_legate INTERFACE ${XFUSE_LEGATE_LINK_OPTIONS})
