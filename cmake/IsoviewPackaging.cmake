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

set(ISOVIEW_PACKAGE_MAINTAINER
    "isoview maintainers <maintainers@users.noreply.a-seed-38d83448.example>"
    CACHE STRING "Maintainer field of the Debian package (name <email>)")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME isoview)
set(CPACK_PACKAGE_VENDOR isoview)
set(CPACK_PACKAGE_CONTACT "${ISOVIEW_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "live GPU isosurfaces and volume rendering of DICOM, NRRD, MetaImage and raw volumes")
set(CPACK_PACKAGE_DESCRIPTION [=[
isoview opens a CT or MR scan and shows its isosurface live: drag the isovalue and the
surface follows every frame, extracted on the GPU by marching cubes through a HistoPyramid.
It also ray casts the volume through an editable transfer function, and exports exactly the
surface on screen as PLY, STL or OBJ, optionally closed, smoothed and decimated for 3D
printing.

The package holds the Qt 6 viewer (isoview), the headless extraction tool (isoview-cli) and
the engine benchmarks (isoview-bench, isoview-label-bench), which run without a display
through EGL, and a small
sample MR head volume. Without a GPU, Mesa's llvmpipe renders.]=])
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
