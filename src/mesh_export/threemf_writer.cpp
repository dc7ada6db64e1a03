#include "mesh_export/threemf_writer.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/log.h"

#include <Model/COM/NMR_DLLInterfaces.h>
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>

namespace isoview {
namespace {

// lib3mf hands out reference-counted instances; each is released exactly once.
// (Its instances are typed PLib3MFBase*, which is void**.)
struct Lib3mfRelease {
    void operator()(NMR::PLib3MFBase* instance) const { NMR::lib3mf_release(instance); }
};
using Lib3mfHandle = std::unique_ptr<NMR::PLib3MFBase, Lib3mfRelease>;

// Throws IoError with lib3mf's own message (from instance, when it has one) unless result is OK.
void check(LIB3MFRESULT result, NMR::PLib3MFBase* instance, const std::string& what,
           const std::filesystem::path& path)
{
    if (result == LIB3MF_OK) return;
    std::string reason = "error " + std::to_string(std::uint32_t(result));
    DWORD code = 0;
    LPCSTR message = nullptr;
    if (instance != nullptr && NMR::lib3mf_getlasterror(instance, &code, &message) == LIB3MF_OK &&
        message != nullptr && *message != '\0') {
        reason = message;
    }
    throw IoError("cannot write 3MF file '" + path.string() + "': " + what + " failed (" + reason +
                  ")");
}

// Builds one mesh object: positions mapped once per vertex, triangles in output winding.
void addSurface(NMR::PLib3MFModel* model, NMR::PLib3MFModelBaseMaterial* materials,
                DWORD materialGroup, const NamedMesh& surface, const MeshCoordinates& map,
                ExportProgress& progress, const std::filesystem::path& path)
{
    const IsoMesh& mesh = *surface.mesh;
    std::vector<NMR::MODELMESHVERTEX> vertices(mesh.vertexCount());
    for (std::size_t v = 0; v < vertices.size(); ++v) {
        const glm::vec3 p = map.position(mesh.positions[v]);
        requireFinite(p, v, path);
        vertices[v] = {{p.x, p.y, p.z}};
    }
    std::vector<NMR::MODELMESHTRIANGLE> triangles(mesh.triangleCount());
    for (std::size_t t = 0; t < triangles.size(); ++t) {
        const std::array<std::uint32_t, 3> corners = map.triangle(mesh, t);
        triangles[t] = {{corners[0], corners[1], corners[2]}};
        progress.advance();
    }

    DWORD material = 0;
    check(NMR::lib3mf_basematerial_addmaterialutf8(materials, surface.name.c_str(), surface.color.r,
                                                   surface.color.g, surface.color.b, &material),
          materials, "adding the material of '" + surface.name + "'", path);
    // lib3mf 1.8 writes the colour with alpha 0 (transparent to some slicers): make it opaque.
    check(NMR::lib3mf_basematerial_setdisplaycolorrgba(materials, material, surface.color.r,
                                                       surface.color.g, surface.color.b, 255),
          materials, "setting the colour of '" + surface.name + "'", path);

    NMR::PLib3MFModelMeshObject* rawObject = nullptr;
    check(NMR::lib3mf_model_addmeshobject(model, &rawObject), model, "adding a mesh object", path);
    const Lib3mfHandle object(rawObject);
    check(NMR::lib3mf_object_setnameutf8(rawObject, surface.name.c_str()), rawObject,
          "naming '" + surface.name + "'", path);
    check(NMR::lib3mf_meshobject_setgeometry(rawObject, vertices.data(), DWORD(vertices.size()),
                                             triangles.data(), DWORD(triangles.size())),
          rawObject, "storing the mesh of '" + surface.name + "'", path);
    NMR::PLib3MFDefaultPropertyHandler* rawHandler = nullptr;
    check(NMR::lib3mf_object_createdefaultpropertyhandler(rawObject, &rawHandler), rawObject,
          "colouring '" + surface.name + "'", path);
    const Lib3mfHandle handler(rawHandler);
    check(NMR::lib3mf_defaultpropertyhandler_setbasematerial(rawHandler, materialGroup, material),
          rawHandler, "colouring '" + surface.name + "'", path);

    NMR::PLib3MFModelBuildItem* rawItem = nullptr;
    check(NMR::lib3mf_model_addbuilditem(model, rawObject, nullptr, &rawItem), model,
          "adding the build item of '" + surface.name + "'", path);
    const Lib3mfHandle item(rawItem);
}

} // namespace

void writeThreeMf(const std::filesystem::path& path, const std::vector<NamedMesh>& surfaces,
                  const VolumeGeometry& geometry, const ThreeMfOptions& options)
{
    constexpr std::uint64_t kMaxRecords = std::numeric_limits<std::uint32_t>::max();
    if (options.space != MeshSpace::Physical) {
        throw InvalidInputError("cannot export 3MF in voxel indices: 3MF positions are "
                                "millimetres (export PLY, STL or OBJ for voxel space)");
    }
    requireHeaderText(options.processing, "3MF processing note");
    std::uint64_t totalTriangles = 0;
    for (const NamedMesh& surface : surfaces) {
        validateMeshForExport(*surface.mesh, "3MF", kMaxRecords);
        if (surface.mesh->triangleCount() > kMaxRecords) {
            throw InvalidInputError(
                "cannot export mesh: " + std::to_string(surface.mesh->triangleCount()) +
                " triangles exceed the 3MF limit of 4294967295");
        }
        totalTriangles += surface.mesh->triangleCount();
    }
    if (totalTriangles == 0) {
        throw InvalidInputError("cannot export 3MF file '" + path.string() +
                                "': no surface has triangles");
    }
    const MeshCoordinates map(geometry, options.space, options.axes);
    ExportProgress progress(options.progress, totalTriangles, path);
    AtomicFileWriter out(path); // refuses a destination it may not replace before the work

    NMR::PLib3MFModel* rawModel = nullptr;
    check(NMR::lib3mf_createmodel(&rawModel), nullptr, "creating the model", path);
    const Lib3mfHandle model(rawModel);
    check(NMR::lib3mf_model_setunit(rawModel, NMR::MODELUNIT_MILLIMETER), rawModel,
          "setting the unit", path);
    std::string description = "isoview surfaces SPACE=" + std::string(map.spaceName()) +
                              " units=" + std::string(map.unitName());
    if (!options.processing.empty()) description += " processing: " + options.processing;
    check(NMR::lib3mf_model_addmetadatautf8(rawModel, "Application", "isoview"), rawModel,
          "adding metadata", path);
    check(NMR::lib3mf_model_addmetadatautf8(rawModel, "Description", description.c_str()), rawModel,
          "adding metadata", path);

    NMR::PLib3MFModelBaseMaterial* rawMaterials = nullptr;
    check(NMR::lib3mf_model_addbasematerialgroup(rawModel, &rawMaterials), rawModel,
          "adding the materials", path);
    const Lib3mfHandle materials(rawMaterials);
    DWORD materialGroup = 0;
    check(NMR::lib3mf_basematerial_getresourceid(rawMaterials, &materialGroup), rawMaterials,
          "reading the material id", path);
    std::size_t objects = 0;
    for (const NamedMesh& surface : surfaces) {
        if (surface.mesh->triangleCount() == 0) continue;
        addSurface(rawModel, rawMaterials, materialGroup, surface, map, progress, path);
        ++objects;
    }

    // NOTE: lib3mf 1.8 has no streaming writer we could point at AtomicFileWriter short of
    // callbacks; the compressed package is small next to the mesh, so it is built in memory.
    NMR::PLib3MFModelWriter* rawWriter = nullptr;
    check(NMR::lib3mf_model_querywriter(rawModel, "3mf", &rawWriter), rawModel,
          "creating the writer", path);
    const Lib3mfHandle writer(rawWriter);
    ULONG64 size = 0;
    check(NMR::lib3mf_writer_getstreamsize(rawWriter, &size), rawWriter, "packaging", path);
    std::vector<BYTE> bytes(size);
    check(NMR::lib3mf_writer_writetobuffer(rawWriter, bytes.data(), size), rawWriter, "packaging",
          path);
    out.write(bytes.data(), bytes.size());
    progress.finish();
    out.commit();
    log::get("io")->info("wrote {} ({} objects, {} triangles, 3MF, SPACE={})", path.string(),
                         objects, totalTriangles, map.spaceName());
}

} // namespace isoview
