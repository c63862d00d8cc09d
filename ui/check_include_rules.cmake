# IncludeRules (ctest, label core): every `#include "ui/<folder>/…"` in ui/<folder>/ names
# the folder itself or one the folder declares in ui/layers.cmake; core/ includes no ui/ or
# app/ file. Lists each offending line and fails.
#   cmake -DCX_SOURCE_DIR=<repo> -P ui/check_include_rules.cmake
cmake_minimum_required(VERSION 3.22)
if(NOT CX_SOURCE_DIR)
    get_filename_component(CX_SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
endif()
include("${CX_SOURCE_DIR}/ui/layers.cmake")

set(offences)
file(GLOB entries RELATIVE "${CX_SOURCE_DIR}/ui" "${CX_SOURCE_DIR}/ui/*")
foreach(entry IN LISTS entries)
    if(IS_DIRECTORY "${CX_SOURCE_DIR}/ui/${entry}" AND NOT entry IN_LIST CX_UI_FOLDERS)
        list(APPEND offences "ui/${entry}/: a folder without an entry in ui/layers.cmake")
    endif()
endforeach()

foreach(folder IN LISTS CX_UI_FOLDERS)
    set(allowed ${folder} ${CX_UI_DEPENDS_${folder}})
    file(GLOB_RECURSE files RELATIVE "${CX_SOURCE_DIR}"
         "${CX_SOURCE_DIR}/ui/${folder}/*.h" "${CX_SOURCE_DIR}/ui/${folder}/*.cpp")
    foreach(path IN LISTS files)
        file(STRINGS "${CX_SOURCE_DIR}/${path}" lines
             REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<](ui|app)/")
        foreach(line IN LISTS lines)
            if(line MATCHES "include[ \t]*[\"<]app/")
                list(APPEND offences "${path}: ${line}  (ui never includes app/)")
            elseif(line MATCHES "include[ \t]*[\"<]ui/([A-Za-z0-9_]+)/")
                if(NOT CMAKE_MATCH_1 IN_LIST allowed)
                    string(REPLACE ";" " " names "${allowed}")
                    list(APPEND offences
                         "${path}: ${line}  (ui/${folder} may include: ${names})")
                endif()
            endif()
        endforeach()
    endforeach()
endforeach()

file(GLOB_RECURSE core_files RELATIVE "${CX_SOURCE_DIR}"
     "${CX_SOURCE_DIR}/core/*.h" "${CX_SOURCE_DIR}/core/*.cpp")
foreach(path IN LISTS core_files)
    file(STRINGS "${CX_SOURCE_DIR}/${path}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<](ui|app)/")
    foreach(line IN LISTS lines)
        list(APPEND offences "${path}: ${line}  (core includes neither ui/ nor app/)")
    endforeach()
endforeach()

if(offences)
    list(LENGTH offences count)
    string(REPLACE ";" "\n  " text "${offences}")
    message(FATAL_ERROR "IncludeRules: ${count} include line(s) break the layer rules "
                        "(ui/layers.cmake, ui/README.md):\n  ${text}")
endif()
message(STATUS "IncludeRules: every ui/ and core/ include follows ui/layers.cmake")
