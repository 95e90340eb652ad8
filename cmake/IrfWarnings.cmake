# SPDX-License-Identifier: Apache-2.0
# irf_target_warnings(TARGET): the project's warning flags (errors when IRF_WERROR is ON).
function(irf_target_warnings target)
    target_compile_options(${target} PRIVATE
        $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                                  -Wold-style-cast -Wcast-align -Woverloaded-virtual>
        $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${IRF_WERROR}>>:-Werror>
        $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${IRF_WERROR}>>:-Werror=all-warnings>)
endfunction()

if(IRF_SANITIZE STREQUAL "address")
    add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined>
                        $<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>)
    add_link_options(-fsanitize=address,undefined)
elseif(IRF_SANITIZE STREQUAL "thread")
    add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=thread>)
    add_link_options(-fsanitize=thread)
elseif(NOT IRF_SANITIZE STREQUAL "")
    message(FATAL_ERROR "[irf] IRF_SANITIZE must be '', 'address' or 'thread', not '${IRF_SANITIZE}'")
endif()
