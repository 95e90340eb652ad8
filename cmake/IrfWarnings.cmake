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
    if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
        # The runtime as one shared library, as GCC links it: libirf.so and libirf_entry.so link
        # with --no-undefined, and every program and library then shares one copy. Clang's is
        # not on the loader's path, hence the run path.
        execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-runtime-dir
                        OUTPUT_VARIABLE irf_sanitizer_runtime_dir OUTPUT_STRIP_TRAILING_WHITESPACE)
        add_link_options(-shared-libasan -Wl,-rpath,${irf_sanitizer_runtime_dir})
    endif()
elseif(IRF_SANITIZE STREQUAL "thread")
    add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=thread>)
    add_link_options(-fsanitize=thread)
elseif(NOT IRF_SANITIZE STREQUAL "")
    message(FATAL_ERROR "[irf] IRF_SANITIZE must be '', 'address' or 'thread', not '${IRF_SANITIZE}'")
endif()

# irf_test_sources_uninstrumented(TARGET): under ASan + UBSan, TARGET's own sources (a test
# program's) compile without the sanitizers' instrumentation; the code under test, in the
# libraries and programs it links or runs, keeps it, and the program still links the runtimes.
# ASan and UBSan report nothing false on such mixed code (the checks of the test sources' own
# accesses, and of header-only code they instantiate, are what is given up: about half of the ASan build's compile time,
# docs/reliability.md). TSan would report false races across uninstrumented synchronisation, so
# its build keeps every source instrumented.
function(irf_test_sources_uninstrumented target)
    if(IRF_SANITIZE STREQUAL "address")
        get_target_property(options ${target} COMPILE_OPTIONS)
        if(options)
            list(REMOVE_ITEM options "$<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined>")
            set_target_properties(${target} PROPERTIES COMPILE_OPTIONS "${options}")
        endif()
    endif()
endfunction()

