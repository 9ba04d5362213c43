# Project-wide warning and sanitizer flags, applied to every target through lqe_options.
add_library(lqe_options INTERFACE)
target_compile_options(lqe_options INTERFACE -Wall -Wextra -Wpedantic -Wshadow=local
                                             -Wnon-virtual-dtor -Wimplicit-fallthrough)
# GCC 12 reports -Wrestrict false positives for `"literal" + std::string&&` at -O3 (GCC bug
# 105329, fixed in GCC 13); they fire inside libstdc++, not in our code.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(lqe_options INTERFACE -Wno-restrict)
endif()
if(LQE_WERROR)
  target_compile_options(lqe_options INTERFACE -Werror)
endif()
if(LQE_SANITIZE)
  target_compile_options(lqe_options INTERFACE -fsanitize=address,undefined
                                               -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(lqe_options INTERFACE -fsanitize=address,undefined)
  # GCC's flow analysis sees through the sanitizer instrumentation badly and reports
  # maybe-uninitialized inside libstdc++ (std::function in <regex>), and mismatched-new-delete
  # for Boost.Asio's coroutine frames (awaitable_frame_base pairs its own operator new and
  # delete); the Release build keeps both warnings.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(lqe_options INTERFACE -Wno-maybe-uninitialized
                                                 -Wno-mismatched-new-delete)
  endif()
endif()
