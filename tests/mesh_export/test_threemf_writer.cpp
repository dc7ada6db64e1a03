// 3MF export read back by lib3mf's own reader: two named, coloured objects in millimetres with
// their exact vertex and triangle counts and positions, the processing note in the metadata, a
// ZIP package (never STL bytes), and a surface without triangles left out.
#include "mesh_export/mesh_export.h"
#include "mesh_export/mesh_export_test_support.h"
#include "support/file_contents.h"
#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <Model/COM/NMR_DLLInterfaces.h>
#include <memory>
#include <string>
#include <vector>

namespace isoview {
namespace {

namespace fs = std::filesystem;

struct Release {
    void operator()(NMR::PLib3MFBase* instance) const { NMR::lib3mf_release(instance); }
};
using Handle = std::unique_ptr<NMR::PLib3MFBase, Release>; // lib3mf instances are void**

std::string objectName(NMR::PLib3MFBase* object)
{
    ULONG needed = 0;
    NMR::lib3mf_object_getnameutf8(object, nullptr, 0, &needed);
    std::string name(needed + 1, '\0');
    NMR::lib3mf_object_getnameutf8(object, name.data(), ULONG(name.size()), &needed);
    name.resize(needed);
    return name;
}

// The tetrahedron twice, the second copy 5 voxels further along x.
IsoMesh twoTetrahedra(const VolumeGeometry& geometry)
{
    IsoMesh mesh = test::makeTetrahedron(geometry);
    const IsoMesh one = mesh;
    const auto offset = std::uint32_t(one.vertexCount());
    for (std::size_t v = 0; v < one.vertexCount(); ++v) {
        mesh.positions.push_back(one.positions[v] + glm::vec3(5.0f, 0.0f, 0.0f));
        mesh.normals.push_back(one.normals[v]);
    }
    for (const std::uint32_t index : one.indices)
        mesh.indices.push_back(index + offset);
    return mesh;
}

TEST(ThreeMfWriter, NamedColouredObjectsInMillimetresReadBackByLib3mf)
{
    test::TempDir dir;
    const fs::path path = dir.path() / "head.3mf";
    const VolumeGeometry geometry = test::anisotropicGeometry();
    const IsoMesh skin = test::makeTetrahedron(geometry);
    const IsoMesh bone = twoTetrahedra(geometry);
    const IsoMesh empty;
    exportSurfaces3mf(path,
                      {{&skin, "skin", {230, 217, 191}},
                       {&empty, "nothing", {1, 2, 3}},
                       {&bone, "bone", {255, 255, 240}}},
                      geometry, {.processing = "close-borders smooth"});

    const std::string bytes = test::readFile(path);
    ASSERT_GE(bytes.size(), 4u);
    EXPECT_EQ(bytes.substr(0, 4), std::string("PK\x03\x04", 4)); // a ZIP package
    EXPECT_EQ(bytes.find("binary STL"), std::string::npos);      // not STL under another name

    NMR::PLib3MFModel* rawModel = nullptr;
    ASSERT_EQ(NMR::lib3mf_createmodel(&rawModel), LIB3MF_OK);
    const Handle model(rawModel);
    NMR::PLib3MFModelReader* rawReader = nullptr;
    ASSERT_EQ(NMR::lib3mf_model_queryreader(rawModel, "3mf", &rawReader), LIB3MF_OK);
    const Handle reader(rawReader);
    ASSERT_EQ(NMR::lib3mf_reader_readfromfileutf8(rawReader, path.c_str()), LIB3MF_OK);

    DWORD unit = 0;
    ASSERT_EQ(NMR::lib3mf_model_getunit(rawModel, &unit), LIB3MF_OK);
    EXPECT_EQ(unit, DWORD(NMR::MODELUNIT_MILLIMETER));

    std::string description;
    DWORD metadata = 0;
    NMR::lib3mf_model_getmetadatacount(rawModel, &metadata);
    for (DWORD i = 0; i < metadata; ++i) {
        char key[64] = {};
        char value[256] = {};
        ULONG needed = 0;
        NMR::lib3mf_model_getmetadatakeyutf8(rawModel, i, key, sizeof(key), &needed);
        NMR::lib3mf_model_getmetadatavalueutf8(rawModel, i, value, sizeof(value), &needed);
        if (std::string(key) == "Description") description = value;
    }
    EXPECT_EQ(description, "isoview surfaces SPACE=LPS units=mm processing: close-borders smooth");

    struct Expected {
        std::string name;
        glm::u8vec3 color;
        const IsoMesh* mesh;
    };
    const std::vector<Expected> expected = {{"skin", {230, 217, 191}, &skin},
                                            {"bone", {255, 255, 240}, &bone}};
    const MeshCoordinates map(geometry, MeshSpace::Physical);
    NMR::PLib3MFModelResourceIterator* rawObjects = nullptr;
    ASSERT_EQ(NMR::lib3mf_model_getmeshobjects(rawModel, &rawObjects), LIB3MF_OK);
    const Handle objects(rawObjects);
    std::size_t found = 0;
    BOOL hasNext = false;
    while (NMR::lib3mf_resourceiterator_movenext(rawObjects, &hasNext) == LIB3MF_OK && hasNext) {
        ASSERT_LT(found, expected.size()) << "more objects than surfaces with triangles";
        const Expected& want = expected[found++];
        NMR::PLib3MFModelResource* rawObject = nullptr;
        ASSERT_EQ(NMR::lib3mf_resourceiterator_getcurrent(rawObjects, &rawObject), LIB3MF_OK);
        const Handle object(rawObject);
        EXPECT_EQ(objectName(rawObject), want.name);

        DWORD vertices = 0;
        DWORD triangles = 0;
        NMR::lib3mf_meshobject_getvertexcount(rawObject, &vertices);
        NMR::lib3mf_meshobject_gettrianglecount(rawObject, &triangles);
        EXPECT_EQ(vertices, want.mesh->vertexCount()) << want.name;
        EXPECT_EQ(triangles, want.mesh->triangleCount()) << want.name;
        NMR::MODELMESHVERTEX last{};
        NMR::lib3mf_meshobject_getvertex(rawObject, vertices - 1, &last);
        const glm::vec3 p = map.position(want.mesh->positions.back());
        for (int c = 0; c < 3; ++c) // lib3mf 1.8 writes six decimals: within a micrometre
            EXPECT_NEAR(last.m_fPosition[c], p[c], 1e-5) << want.name << " axis " << c;

        NMR::PLib3MFDefaultPropertyHandler* rawHandler = nullptr;
        ASSERT_EQ(NMR::lib3mf_object_createdefaultpropertyhandler(rawObject, &rawHandler),
                  LIB3MF_OK);
        const Handle handler(rawHandler);
        DWORD group = 0;
        DWORD index = 0;
        ASSERT_EQ(NMR::lib3mf_defaultpropertyhandler_getbasematerial(rawHandler, &group, &index),
                  LIB3MF_OK)
            << want.name << " has no base material";
        NMR::PLib3MFModelBaseMaterial* rawMaterials = nullptr;
        ASSERT_EQ(NMR::lib3mf_model_getbasematerialbyid(rawModel, group, &rawMaterials), LIB3MF_OK);
        const Handle materials(rawMaterials);
        BYTE r = 0, g = 0, b = 0, a = 0;
        NMR::lib3mf_basematerial_getdisplaycolor(rawMaterials, index, &r, &g, &b, &a);
        EXPECT_EQ(glm::u8vec3(r, g, b), want.color) << want.name;
        EXPECT_EQ(a, 255) << want.name << "'s colour must be opaque";
    }
    EXPECT_EQ(found, expected.size());
}

} // namespace
} // namespace isoview
