# The layers of src/ as CMake targets whose include paths are exactly their allowed arrows.
#
# Every folder of src/ is one library, and its headers are reached as "folder/file.h". No target
# gets src/ itself on its include path: each library publishes a view of its own folder, a
# directory in the build tree holding a symbolic link named after the folder. A library sees
# its own view plus the views of the libraries it links, so an include across an arrow that the
# link line does not draw (io -> gpu, say) fails to compile with "No such file or directory".
#
# A library with a FACADE publishes only those headers (a view folder of per-file links); its
# own sources, and targets that link <target>_internals (the GL tests), see the whole folder.
# That is how app/ and the CLI reach the GPU engine through SceneRenderer alone.

# Points `link` at `target`, replacing an older link (never following one: links here point
# into the source tree, and a recursive removal through them would delete sources).
function(_isoview_symlink target link)
  if(IS_SYMLINK "${link}")
    file(READ_SYMLINK "${link}" _current)
    if(_current STREQUAL target)
      return()
    endif()
    file(REMOVE "${link}")
  elseif(EXISTS "${link}")
    message(FATAL_ERROR "${link} exists and is not a link; remove ${PROJECT_BINARY_DIR}/include*")
  endif()
  file(CREATE_LINK "${target}" "${link}" SYMBOLIC)
endfunction()

# isoview_layer(<target> <folder> [FACADE <header>...])
function(isoview_layer target folder)
  cmake_parse_arguments(PARSE_ARGV 2 ARG "" "" "FACADE")
  set(_source "${PROJECT_SOURCE_DIR}/src/${folder}")
  set(_public "${PROJECT_BINARY_DIR}/include/${folder}")
  if(NOT ARG_FACADE)
    file(MAKE_DIRECTORY "${_public}")
    _isoview_symlink("${_source}" "${_public}/${folder}")
    target_include_directories(${target} PUBLIC "${_public}")
    return()
  endif()

  set(_internal "${PROJECT_BINARY_DIR}/include-internal/${folder}")
  file(MAKE_DIRECTORY "${_internal}" "${_public}/${folder}")
  _isoview_symlink("${_source}" "${_internal}/${folder}")
  foreach(_header IN LISTS ARG_FACADE)
    if(NOT EXISTS "${_source}/${_header}")
      message(FATAL_ERROR "facade header ${folder}/${_header} does not exist")
    endif()
    _isoview_symlink("${_source}/${_header}" "${_public}/${folder}/${_header}")
  endforeach()
  # The library's own sources resolve every "folder/..." through the whole folder (first on
  # the path, so each header has one spelling inside the library).
  target_include_directories(${target} BEFORE PRIVATE "${_internal}")
  target_include_directories(${target} PUBLIC "${_public}")
  add_library(${target}_internals INTERFACE)
  target_include_directories(${target}_internals BEFORE INTERFACE "${_internal}")
  target_link_libraries(${target}_internals INTERFACE ${target})
endfunction()
