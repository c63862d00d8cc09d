# Warnings, the same on every target of the project (core, ui, app, tests, fuzz, bench):
# -Wall -Wextra for C++, -Wpedantic on core. CX_WARNINGS_AS_ERRORS (ON in the `asan` preset CI
# builds) turns them into errors so that none lands. Applied after every target is defined, like
# the precompiled headers, so a new target gets them without asking.
option(CX_WARNINGS_AS_ERRORS "Treat compiler warnings as errors (-Werror)" OFF)

function(cx_apply_warnings)
    cx_compiled_targets(targets)
    foreach(target ${targets})
        target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>)
        if(CX_WARNINGS_AS_ERRORS)
            target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
        endif()
    endforeach()
endfunction()
