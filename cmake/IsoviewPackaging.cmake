# Installation of isoview's data files, and the Debian package (`cpack -G DEB` in a build folder).
#
# Under the prefix (/usr in the package):
#   bin/isoview, bin/isoview-cli, bin/isoview-bench, bin/isoview-label-bench (installed beside
#   their targets)
#   share/isoview/samples/                  the bundled MR head: NRRD header, raw voxels, README,
#                                           LICENSE (the viewer opens it when given no file)
#   share/applications/<id>.desktop         menu entry, with the MIME types the viewer opens
#   share/metainfo/<id>.metainfo.xml        AppStream metadata (software centres)
#   share/mime/packages/<id>.xml            NRRD, MetaImage and NIfTI, which shared-mime-info
#                                           lacks (DICOM is its application/dicom)
#   share/icons/hicolor/*/apps/<id>.{svg,png}
#   share/man/man1/<program>.1.gz           each program's manual page, made by help2man from
#                                           its own --help and --version when it is linked
#   share/doc/isoview/copyright, changelog.gz   from packaging/debian/ (machine-readable
#                                           copyright; the changelog's version is checked here)
# <id> is ISOVIEW_APP_ID. dpkg's triggers (shared-mime-info, desktop-file-utils, the icon
# caches) refresh the MIME database, the desktop database and the icon caches; the package
# needs no maintainer scripts.

install(FILES
  resources/samples/mr_head.nhdr
  resources/samples/mr_head_128x128x85_uint16.raw
  resources/samples/README.md
  resources/samples/LICENSE
  DESTINATION ${ISOVIEW_SAMPLE_INSTALL_DIR})

# The desktop side: only with the viewer.
if(ISOVIEW_BUILD_APP)
  install(FILES packaging/linux/${ISOVIEW_APP_ID}.desktop
    DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES packaging/linux/${ISOVIEW_APP_ID}.metainfo.xml
    DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
  install(FILES packaging/linux/${ISOVIEW_APP_ID}.mime.xml
    DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages RENAME ${ISOVIEW_APP_ID}.xml)

  # The PNGs are rendered from the SVG once and checked in (packaging/render-icons.sh), so the
  # build needs no SVG renderer.
  install(FILES resources/icons/isoview.svg
    DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps RENAME ${ISOVIEW_APP_ID}.svg)
  foreach(size IN ITEMS 16 32 48 64 128 256)
    install(FILES resources/icons/isoview-${size}.png
      DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps
      RENAME ${ISOVIEW_APP_ID}.png)
  endforeach()
endif()

# Manual pages and the changelog are compressed as Debian wants them: gzip -9, and -n so that no
# name or time stamp makes two builds differ.
find_program(ISOVIEW_GZIP gzip REQUIRED)
find_program(ISOVIEW_HELP2MAN help2man)
if(NOT ISOVIEW_HELP2MAN)
  message(FATAL_ERROR "help2man is missing: it writes the programs' manual pages from their "
                      "--help at build time (bash packaging/install-deps.sh installs it)")
endif()

# One page per installed program, remade whenever the program is relinked, so a page never
# says other than the program's --help. The viewer answers --help without a display; the
# offscreen platform only guards against a broken DISPLAY in the build's environment.
set(isoview_man_dir ${PROJECT_BINARY_DIR}/man)
set(isoview_man_pages)
function(isoview_man_page program description)
  if(NOT TARGET ${program})
    return()
  endif()
  set(page ${isoview_man_dir}/${program}.1)
  add_custom_command(OUTPUT ${page}.gz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${isoview_man_dir}
    COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen
            ${ISOVIEW_HELP2MAN} --no-info --section=1 --name=${description}
            --output=${page} $<TARGET_FILE:${program}>
    COMMAND ${ISOVIEW_GZIP} -9nf ${page}
    DEPENDS ${program}
    COMMENT "Manual page of ${program} (help2man)"
    VERBATIM)
  install(FILES ${page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  set(isoview_man_pages ${isoview_man_pages} ${page}.gz PARENT_SCOPE)
endfunction()
isoview_man_page(isoview "live GPU isosurfaces and volume rendering of CT and MR scans")
isoview_man_page(isoview-cli "extract isosurfaces of CT and MR scans as meshes, headless")
isoview_man_page(isoview-bench "benchmark isoview's GPU isosurface engine, headless")
isoview_man_page(isoview-label-bench "benchmark the GPU surfaces of a label map, headless")
add_custom_target(isoview_man_pages ALL DEPENDS ${isoview_man_pages})

# The changelog's newest entry must name this version, so a new version cannot ship the
# previous one's changelog (the package's version is project(VERSION), with no Debian revision:
# a native package, whose changelog is changelog.gz).
set(isoview_changelog_source ${PROJECT_SOURCE_DIR}/packaging/debian/changelog)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${isoview_changelog_source})
file(STRINGS ${isoview_changelog_source} isoview_changelog_head LIMIT_COUNT 1)
if(NOT isoview_changelog_head MATCHES "^isoview \\(([^)]+)\\) "
   OR NOT CMAKE_MATCH_1 STREQUAL PROJECT_VERSION)
  message(FATAL_ERROR "packaging/debian/changelog starts with '${isoview_changelog_head}': its "
                      "newest entry must be for isoview ${PROJECT_VERSION}")
endif()
set(isoview_changelog ${PROJECT_BINARY_DIR}/doc/changelog)
add_custom_command(OUTPUT ${isoview_changelog}.gz
  COMMAND ${CMAKE_COMMAND} -E copy ${isoview_changelog_source} ${isoview_changelog}
  COMMAND ${ISOVIEW_GZIP} -9nf ${isoview_changelog}
  DEPENDS ${isoview_changelog_source}
  VERBATIM)
add_custom_target(isoview_changelog ALL DEPENDS ${isoview_changelog}.gz)
install(FILES packaging/debian/copyright ${isoview_changelog}.gz
  DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(ISOVIEW_PACKAGE_MAINTAINER
    "isoview maintainers <maintainers@users.noreply.a-seed-38d83448.example>"
    CACHE STRING "Maintainer field of the Debian package (name <email>)")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME isoview)
set(CPACK_PACKAGE_VENDOR isoview)
set(CPACK_PACKAGE_CONTACT "${ISOVIEW_PACKAGE_MAINTAINER}")
# Debian's limits: a synopsis of at most 80 characters, description lines of at most 80
# columns once dpkg indents them by one (lintian checks both).
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "live GPU isosurfaces and volume rendering of CT and MR scans")
set(CPACK_PACKAGE_DESCRIPTION [=[
isoview opens a CT or MR scan (DICOM, NIfTI, NRRD, MetaImage or raw voxels)
and shows its isosurface live: drag the isovalue and the surface follows every
frame, extracted on the GPU by marching cubes through a HistoPyramid. It also
ray casts the volume through an editable transfer function, and exports
exactly the surface on screen as PLY, STL, OBJ or 3MF, optionally closed,
smoothed and decimated for 3D printing.

The package holds the Qt 6 viewer (isoview), the headless extraction tool
(isoview-cli) and the engine benchmarks (isoview-bench, isoview-label-bench),
which run without a display through EGL, and a small sample MR head volume.
Without a GPU, Mesa's llvmpipe renders.]=])
# The package installs to /usr, whatever CMAKE_INSTALL_PREFIX the build folder was set up with.
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# Library dependencies come from dpkg-shlibdeps (dpkg-dev). Added by hand: what is loaded at
# run time and so invisible to it, Qt's platform plugins (xcb, wayland) and Mesa's DRI drivers
# (llvmpipe when there is no GPU; libegl1 already pulls in Mesa's EGL). Linked libraries such
# as lib3mf1 (3MF export) and OpenMesh are found by dpkg-shlibdeps and need no entry here.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins, libgl1-mesa-dri")
include(CPack)
