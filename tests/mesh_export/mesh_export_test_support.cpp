#include "mesh_export/mesh_export_test_support.h"

#include "extraction/cpu_marching_cubes.h"
#include "support/synthetic_volumes.h"
#include "test_paths.h"

#include <cstdio>
#include <map>
#include <sstream>

namespace isoview::test {

namespace fs = std::filesystem;

std::string formatName(MeshFormat format)
{
    return std::string(meshFormatExtension(format));
}

std::string encodingName(PlyEncoding encoding)
{
    return encoding == PlyEncoding::Ascii ? "Ascii" : "Binary";
}

VtkMesh readWithVtk(const fs::path& path, bool listPoints)
{
    const std::string script = std::string(test::kSourceDir) + "/tests/tools/read_mesh_vtk.py";
    const std::string command = std::string(test::kPythonExecutable) + " '" + script + "' '" +
                                path.string() + "'" + (listPoints ? " --points" : "") + " 2>&1";
    VtkMesh mesh;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) return mesh;
    char buffer[4096];
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
        mesh.output += buffer;
    }
    mesh.exitStatus = ::pclose(pipe);

    const std::map<std::string, long*> counts = {
        {"points", &mesh.points},       {"cells", &mesh.cells},
        {"triangles", &mesh.triangles}, {"normals", &mesh.normals},
        {"stl_count", &mesh.stlCount},  {"stl_normal_mismatches", &mesh.stlNormalMismatches}};
    const std::map<std::string, double*> reals = {
        {"area", &mesh.area}, {"volume", &mesh.volume}, {"signed_volume", &mesh.signedVolume}};
    std::istringstream lines(mesh.output);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream fields(line);
        std::string key;
        fields >> key;
        // Doubles read back exactly what Python's repr printed; VTK's points are floats.
        const auto vec3 = [&fields] {
            double x = 0.0, y = 0.0, z = 0.0;
            fields >> x >> y >> z;
            return glm::vec3(float(x), float(y), float(z));
        };
        if (const auto count = counts.find(key); count != counts.end()) {
            fields >> *count->second;
        } else if (const auto real = reals.find(key); real != reals.end()) {
            fields >> *real->second;
        } else if (key == "bounds") {
            for (double& b : mesh.bounds) {
                fields >> b;
            }
        } else if (key == "colors") {
            fields >> mesh.colorCount >> mesh.firstColor.x >> mesh.firstColor.y >>
                mesh.firstColor.z;
        } else if (key == "stl_header") {
            std::getline(fields >> std::ws, mesh.stlHeader);
        } else if (key == "p") {
            mesh.positions.push_back(vec3());
        } else if (key == "n") {
            mesh.pointNormals.push_back(vec3());
        } else if (key == "t") {
            std::array<long, 3> face{};
            fields >> face[0] >> face[1] >> face[2];
            mesh.faces.push_back(face);
        }
    }
    return mesh;
}

VolumeGeometry anisotropicGeometry()
{
    VolumeGeometry geometry;
    geometry.spacing = {0.9, 0.75, 1.25};
    geometry.origin = {10.0, -20.0, 30.25};
    return geometry;
}

IsoMesh makeTetrahedron(const VolumeGeometry& geometry)
{
    IsoMesh mesh;
    mesh.positions = {
        {1.0f, 1.0f, 1.0f}, {3.0f, 1.0f, 1.0f}, {1.0f, 4.0f, 1.0f}, {1.0f, 1.0f, 5.5f}};
    mesh.indices = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    const glm::vec3 centre =
        (mesh.positions[0] + mesh.positions[1] + mesh.positions[2] + mesh.positions[3]) / 4.0f;
    const glm::dmat3 toPhysical = geometry.gradientToPhysical();
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
        const glm::dvec3 indexNormal = glm::dvec3(mesh.positions[v] - centre);
        mesh.normals.push_back(glm::vec3(glm::normalize(toPhysical * indexNormal)));
        mesh.edgeKeys.push_back(makeEdgeKey(v, 0));
    }
    return mesh;
}

Sphere makeSphereMesh(const VolumeGeometry& geometry)
{
    const glm::uvec3 dims(40, 44, 30);
    Sphere sphere;
    sphere.geometry = geometry;
    sphere.radius = 12.0;
    const glm::dvec3 indexCentre = (glm::dvec3(dims) - 1.0) / 2.0;
    sphere.centre = glm::dvec3(geometry.indexToPhysical() * glm::dvec4(indexCentre, 1.0));
    const Volume volume =
        makeSphere(dims, glm::vec3(sphere.centre), float(sphere.radius), geometry);
    sphere.mesh = extractIsosurfaceCpu(volume, StoredValue(0.0f));
    return sphere;
}

} // namespace isoview::test
