# Project-wide warning and sanitizer flags, applied to every target through lqe_options.
add_library(lqe_options INTERFACE)
target_compile_options(lqe_options INTERFACE -Wall -Wextra -Wpedantic -Wshadow=local
                                             -Wnon-virtual-dtor -Wimplicit-fallthrough)
if(LQE_WERROR)
  target_compile_options(lqe_options INTERFACE -Werror)
endif()
if(LQE_SANITIZE)
  target_compile_options(lqe_options INTERFACE -fsanitize=address,undefined
                                               -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(lqe_options INTERFACE -fsanitize=address,undefined)
endif()
