# Build speed without weaker checks: precompiled headers for every target of the project, chosen
# by where the target lives (core-only, Qt, GoogleTest). Applied once, after every target is
# defined, so that a new target or a new ui folder gets them without a line of its own.
#
#   -DCX_PCH=OFF   turn precompiled headers off (e.g. to check that every file includes what it
#                  uses: a header missing from a .cpp is hidden by the precompiled set).
option(CX_PCH "Precompile the standard, Eigen, Qt and GoogleTest headers of each target" ON)

set(CX_PCH_CORE_HEADERS
    <algorithm> <array> <cmath> <cstdint> <functional> <limits> <map> <memory> <numeric>
    <optional> <stdexcept> <string> <string_view> <unordered_map> <utility> <vector>
    <Eigen/Dense>)
set(CX_PCH_QT_HEADERS
    <QAction> <QColor> <QComboBox> <QDir> <QFileInfo> <QHBoxLayout> <QLabel> <QList> <QLocale>
    <QObject> <QPainter> <QPushButton> <QSettings> <QSpinBox> <QString> <QStringList> <QTimer>
    <QVBoxLayout> <QWidget>)
set(CX_PCH_TEST_HEADERS <gtest/gtest.h>)

# Every build-system target defined under `directory`, recursively.
function(cx_collect_targets directory out)
    get_property(targets DIRECTORY ${directory} PROPERTY BUILDSYSTEM_TARGETS)
    get_property(children DIRECTORY ${directory} PROPERTY SUBDIRECTORIES)
    foreach(child ${children})
        cx_collect_targets(${child} child_targets)
        list(APPEND targets ${child_targets})
    endforeach()
    set(${out} ${targets} PARENT_SCOPE)
endfunction()

# The project's targets that compile C++ of their own: libraries and executables, not Qt's
# generated resource objects and autogen helpers (one generated file each).
function(cx_compiled_targets out)
    cx_collect_targets(${CMAKE_SOURCE_DIR} targets)
    set(compiled)
    foreach(target ${targets})
        get_target_property(type ${target} TYPE)
        if(NOT type MATCHES "^(STATIC_LIBRARY|SHARED_LIBRARY|OBJECT_LIBRARY|EXECUTABLE)$")
            continue()
        endif()
        if(target MATCHES "(_resources_|_autogen|_other_files)")
            continue()
        endif()
        list(APPEND compiled ${target})
    endforeach()
    set(${out} ${compiled} PARENT_SCOPE)
endfunction()

function(cx_apply_precompiled_headers)
    if(NOT CX_PCH)
        return()
    endif()
    cx_compiled_targets(targets)
    foreach(target ${targets})
        get_target_property(no_pch ${target} CX_NO_PCH)
        if(no_pch)
            continue()
        endif()
        get_target_property(source_dir ${target} SOURCE_DIR)
        file(RELATIVE_PATH where ${CMAKE_SOURCE_DIR} ${source_dir})
        set(headers ${CX_PCH_CORE_HEADERS})
        if(where MATCHES "^tests/(fuzz|bench)")
            target_precompile_headers(${target} PRIVATE ${headers})
            continue()
        endif()
        if(where MATCHES "^(ui|app/gui)" OR target MATCHES "^cx_ui")
            list(APPEND headers ${CX_PCH_QT_HEADERS})
        endif()
        if(where MATCHES "^tests")
            list(APPEND headers ${CX_PCH_TEST_HEADERS})
            if(target MATCHES "ui")
                list(APPEND headers ${CX_PCH_QT_HEADERS} <QTest> <QSignalSpy>)
            endif()
        endif()
        list(REMOVE_DUPLICATES headers)
        target_precompile_headers(${target} PRIVATE ${headers})
    endforeach()
endfunction()

# Unity builds of the Eigen-heavy libraries: every folder of core/ compiles as one translation
# unit, so the decompositions and product kernels that several files use (SVDs, eigensolvers,
# GEMM) are instantiated and optimised once per folder instead of once per file (about half the
# CPU time of core/hmm under the sanitizers). Off by default (an edit then recompiles its whole
# folder); the `asan` preset that CI runs turns it on.
option(CX_UNITY_CORE "Compile each folder of core/ as one translation unit" OFF)

function(cx_apply_unity_core)
    if(NOT CX_UNITY_CORE)
        return()
    endif()
    # Not cx_fuzz_core: a fuzz target links the few objects of it that it uses, and one object
    # per folder would bring in what those objects need from folders it does not compile.
    foreach(target cx_core)
        get_target_property(sources ${target} SOURCES)
        foreach(source ${sources})
            if(source MATCHES "/core/([a-z_]+)/[^/]+\\.cpp$")
                set_source_files_properties(${source} TARGET_DIRECTORY ${target}
                                            PROPERTIES UNITY_GROUP ${CMAKE_MATCH_1})
            endif()
        endforeach()
        set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
    endforeach()
endfunction()

# Unity builds of everything else in batches (`-DCX_UNITY_BATCHES=ON`, set by the `asan` preset):
# every few files of one folder of ui/, app/cli or tests/ compile as one translation unit, so the
# templates of Qt, CLI11 and GoogleTest that they share, and their sanitizer instrumentation, are
# generated once per batch (the test executables: about a third of their CPU time file by file).
# The same rule as in core: two files of one folder may not define the same name in an anonymous
# namespace (shared helpers go in a header of the folder, tests/core/test_helpers.h or
# tests/support).
option(CX_UNITY_BATCHES "Compile ui/, app/cli and the tests in batches of files of one folder" OFF)
set(CX_UNITY_BATCH_SIZE 6 CACHE STRING "Files of one folder per translation unit (CX_UNITY_BATCHES)")

function(cx_apply_unity_batches)
    if(NOT CX_UNITY_BATCHES)
        return()
    endif()
    cx_compiled_targets(targets)
    foreach(target ${targets})
        if(NOT target MATCHES "^(cx_ui_.+|contrast-cli|cx_core_tests|cx_cli_tests|cx_ui_tests)$")
            continue()
        endif()
        get_target_property(sources ${target} SOURCES)
        foreach(source ${sources})
            file(RELATIVE_PATH relative ${CMAKE_SOURCE_DIR} ${source})
            if(relative MATCHES "^\\.\\.")
                continue() # generated in the build folder (moc, resources)
            endif()
            if(NOT relative MATCHES "^(.+)/[^/]+\\.cpp$")
                continue()
            endif()
            string(REPLACE "/" "_" folder "${CMAKE_MATCH_1}")
            if(NOT DEFINED count_${folder})
                set(count_${folder} 0)
            endif()
            math(EXPR batch "${count_${folder}} / ${CX_UNITY_BATCH_SIZE}")
            math(EXPR count_${folder} "${count_${folder}} + 1")
            set_source_files_properties(${source} TARGET_DIRECTORY ${target}
                                        PROPERTIES UNITY_GROUP ${folder}_${batch})
        endforeach()
        set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
    endforeach()
endfunction()
