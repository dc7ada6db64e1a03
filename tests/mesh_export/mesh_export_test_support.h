// Meshes, geometries and the independent reader the mesh export tests share (no GL). VTK's
// readers run in a child python (tests/tools/read_mesh_vtk.py, the interpreter CMake found)
// and report counts, bounds, area, volumes, colours and, when asked, every point, normal and
// triangle; a file VTK cannot read, or one whose STL count disagrees with its size, makes the
// script exit non-zero.
//
// Cost: readWithVtk() starts a python with VTK (about a second); makeSphereMesh() extracts a
// 40 x 44 x 30 ball on the CPU. Nothing here throws; readWithVtk() reports a failure to start
// the script as exitStatus -1.
//
// Example:
//   exportMesh(path, makeTetrahedron(geometry), geometry, {.format = MeshFormat::Obj});
//   const VtkMesh vtk = readWithVtk(path);
//   ASSERT_EQ(vtk.exitStatus, 0) << vtk.output;
#pragma once

#include "extraction/iso_mesh.h"
#include "mesh_export/mesh_export.h"
#include "volume/volume.h"

#include <glm/glm.hpp>

#include <array>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

namespace isoview::test {

// "ply", "stl" or "obj": file names and parameterised test names.
std::string formatName(MeshFormat format);

// "Ascii" or "Binary": parameterised test names.
std::string encodingName(PlyEncoding encoding);

// What read_mesh_vtk.py printed about one file.
struct VtkMesh {
    int exitStatus = -1;
    std::string output;
    long points = -1;
    long cells = -1;
    long triangles = -1;
    std::array<double, 6> bounds{};
    double area = std::numeric_limits<double>::quiet_NaN();
    double volume = std::numeric_limits<double>::quiet_NaN();
    double signedVolume = std::numeric_limits<double>::quiet_NaN();
    long normals = -1;
    long colorCount = -1;
    glm::ivec3 firstColor{-1};
    std::string stlHeader;
    long stlCount = -1;
    long stlNormalMismatches = -1;
    // With listPoints: VTK's points, point normals and triangles, in VTK's order.
    std::vector<glm::vec3> positions;
    std::vector<glm::vec3> pointNormals;
    std::vector<std::array<long, 3>> faces;
};

// Runs read_mesh_vtk.py on path (with listPoints, also every point, normal and triangle).
VtkMesh readWithVtk(const std::filesystem::path& path, bool listPoints = false);

// Spacing 0.9 x 0.75 x 1.25 mm, origin away from zero, axis-aligned.
VolumeGeometry anisotropicGeometry();

// A closed tetrahedron in index space, counter-clockwise seen from outside, with outward
// normals expressed in the physical space of geometry (as the extractor would produce them).
IsoMesh makeTetrahedron(const VolumeGeometry& geometry);

// The isosurface of a signed-distance ball, extracted by the CPU marching cubes.
struct Sphere {
    VolumeGeometry geometry;
    glm::dvec3 centre; // physical (LPS)
    double radius = 0.0;
    IsoMesh mesh;
};

// The ball of radius 12 mm around the centre of a 40 x 44 x 30 grid in geometry.
Sphere makeSphereMesh(const VolumeGeometry& geometry);

} // namespace isoview::test
