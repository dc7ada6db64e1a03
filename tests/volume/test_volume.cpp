// Volume and VolumeGeometry: type names and sizes, constructor validation, the stored range,
// the index -> physical maps for anisotropic, mirrored geometry, and the half-resolution copy
// (2 x 2 x 2 means at the blocks' centres).
#include "core/error.h"
#include "volume/volume.h"
#include "volume/volume_slab.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace isoview {
namespace {

template <class T> std::vector<std::byte> bytesOf(const std::vector<T>& values)
{
    std::vector<std::byte> bytes(values.size() * sizeof(T));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
}

void expectNear(const glm::dmat3& actual, const glm::dmat3& expected)
{
    for (int c = 0; c < 3; ++c) {
        for (int r = 0; r < 3; ++r) {
            EXPECT_NEAR(actual[c][r], expected[c][r], 1e-12) << "column " << c << " row " << r;
        }
    }
}

TEST(ScalarType, SizesNamesAndParsing)
{
    struct Case {
        ScalarType type;
        std::size_t size;
        const char* name;
    };
    const Case cases[] = {{ScalarType::UInt8, 1, "uint8"},     {ScalarType::Int8, 1, "int8"},
                          {ScalarType::UInt16, 2, "uint16"},   {ScalarType::Int16, 2, "int16"},
                          {ScalarType::UInt32, 4, "uint32"},   {ScalarType::Int32, 4, "int32"},
                          {ScalarType::Float32, 4, "float32"}, {ScalarType::Float64, 8, "float64"}};
    for (const Case& c : cases) {
        EXPECT_EQ(scalarSize(c.type), c.size) << c.name;
        EXPECT_EQ(scalarTypeName(c.type), c.name);
        EXPECT_EQ(parseScalarType(c.name), c.type) << c.name;
    }
    EXPECT_EQ(parseScalarType("float"), ScalarType::Float32);
    EXPECT_EQ(parseScalarType("double"), ScalarType::Float64);
    EXPECT_THROW(parseScalarType("uint12"), InvalidInputError);
    EXPECT_THROW(parseScalarType(""), InvalidInputError);
    EXPECT_THROW(parseScalarType("UINT8"), InvalidInputError);
}

TEST(Volume, StoresDimsTypeAndValuesXFastest)
{
    std::vector<std::int16_t> values(4 * 3 * 2);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = std::int16_t(i * 10 - 100);
    const Volume volume({4, 3, 2}, ScalarType::Int16, bytesOf(values));
    EXPECT_EQ(volume.dims(), glm::uvec3(4, 3, 2));
    EXPECT_EQ(volume.voxelCount(), 24u);
    EXPECT_EQ(volume.byteCount(), 48u);
    EXPECT_EQ(volume.valueAt(1, 0, 0), -90.0f);
    EXPECT_EQ(volume.valueAt(0, 1, 0), -60.0f);
    EXPECT_EQ(volume.valueAt(0, 0, 1), 20.0f);
    EXPECT_EQ(volume.valueAt(3, 2, 1), 130.0f);
    EXPECT_EQ(volume.storedRange().min, -100.0);
    EXPECT_EQ(volume.storedRange().max, 130.0);
}

TEST(Volume, RejectsSizeMismatch)
{
    EXPECT_THROW(Volume({2, 2, 2}, ScalarType::UInt16, std::vector<std::byte>(15)),
                 InvalidInputError);
    EXPECT_THROW(Volume({2, 2, 2}, ScalarType::UInt16, std::vector<std::byte>(17)),
                 InvalidInputError);
    EXPECT_THROW(Volume({2, 2, 2}, ScalarType::UInt16, std::vector<std::byte>(8)),
                 InvalidInputError);
    EXPECT_NO_THROW(Volume({2, 2, 2}, ScalarType::UInt16, std::vector<std::byte>(16)));
    try {
        Volume({2, 2, 2}, ScalarType::UInt16, std::vector<std::byte>(15));
    } catch (const InvalidInputError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("15"), std::string::npos) << message;
        EXPECT_NE(message.find("16"), std::string::npos) << message;
    }
}

TEST(Volume, RejectsZeroDimensions)
{
    EXPECT_THROW(Volume({0, 2, 2}, ScalarType::UInt8, {}), InvalidInputError);
    EXPECT_THROW(Volume({2, 0, 2}, ScalarType::UInt8, {}), InvalidInputError);
    EXPECT_THROW(Volume({2, 2, 0}, ScalarType::UInt8, {}), InvalidInputError);
}

TEST(Volume, RejectsInvalidRescale)
{
    const auto make = [](ValueRescale rescale) {
        return Volume({1, 1, 1}, ScalarType::UInt8, std::vector<std::byte>(1), {}, rescale);
    };
    EXPECT_THROW(make({0.0, 0.0}), InvalidInputError);
    EXPECT_THROW(make({-1.0, 0.0}), InvalidInputError);
    EXPECT_THROW(make({std::nan(""), 0.0}), InvalidInputError);
    EXPECT_THROW(make({1.0, std::numeric_limits<double>::infinity()}), InvalidInputError);
    const Volume ok = make({2.36166056166056, -1024.0});
    EXPECT_NEAR(ok.rescale().toReal(1000.0), 1000.0 * 2.36166056166056 - 1024.0, 1e-9);
    EXPECT_NEAR(ok.rescale().toStored(ok.rescale().toReal(1187.0)).value(), 1187.0, 1e-9);
}

TEST(Volume, StoredRangeIgnoresNaNAndInfinity)
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const Volume volume({3, 2, 1}, ScalarType::Float32,
                        bytesOf(std::vector<float>{nan, -2.5f, inf, 7.25f, -inf, nan}));
    EXPECT_EQ(volume.storedRange().min, -2.5);
    EXPECT_EQ(volume.storedRange().max, 7.25);

    const Volume allNan({2, 1, 1}, ScalarType::Float64,
                        bytesOf(std::vector<double>{std::nan(""), std::nan("")}));
    EXPECT_EQ(allNan.storedRange().min, 0.0);
    EXPECT_EQ(allNan.storedRange().max, 0.0);
}

TEST(VolumeGeometry, IdentityIsNotMirrored)
{
    const VolumeGeometry geometry;
    EXPECT_FALSE(geometry.isMirrored());
    expectNear(geometry.gradientToPhysical(), glm::dmat3(1.0));
    EXPECT_EQ(glm::dvec3(geometry.indexToPhysical() * glm::dvec4(1, 2, 3, 1)), glm::dvec3(1, 2, 3));
}

TEST(VolumeGeometry, AnisotropicMirroredMaps)
{
    // Axial slices stored bottom-up in a flipped-Y frame: i -> +x, j -> -y, k -> +z.
    VolumeGeometry geometry;
    geometry.spacing = {0.5, 0.8, 2.5};
    geometry.origin = {-100.0, 50.0, 7.0};
    geometry.direction = glm::dmat3(glm::dvec3(1, 0, 0), glm::dvec3(0, -1, 0), glm::dvec3(0, 0, 1));
    EXPECT_TRUE(geometry.isMirrored());

    const glm::dvec3 p = glm::dvec3(geometry.indexToPhysical() * glm::dvec4(2, 10, 4, 1));
    EXPECT_NEAR(p.x, -100.0 + 2 * 0.5, 1e-12);
    EXPECT_NEAR(p.y, 50.0 - 10 * 0.8, 1e-12);
    EXPECT_NEAR(p.z, 7.0 + 4 * 2.5, 1e-12);

    // Gradients scale by 1/spacing and follow the flip.
    const glm::dmat3 g = geometry.gradientToPhysical();
    expectNear(g,
               glm::dmat3(glm::dvec3(2.0, 0, 0), glm::dvec3(0, -1.25, 0), glm::dvec3(0, 0, 0.4)));

    // A field f(physical) = a . physical sampled on the grid has index gradient L^T a; mapping
    // it back must give a.
    const glm::dvec3 a(0.3, -1.7, 2.2);
    const glm::dmat3 linear = glm::dmat3(geometry.indexToPhysical());
    const glm::dvec3 back = g * (glm::transpose(linear) * a);
    EXPECT_NEAR(back.x, a.x, 1e-12);
    EXPECT_NEAR(back.y, a.y, 1e-12);
    EXPECT_NEAR(back.z, a.z, 1e-12);
}

TEST(VolumeGeometry, ObliqueRotationIsNotMirroredButFlipIs)
{
    VolumeGeometry geometry;
    geometry.spacing = {1.0, 1.0, 3.0};
    const double c = std::cos(0.4);
    const double s = std::sin(0.4);
    geometry.direction = glm::dmat3(glm::dvec3(c, s, 0), glm::dvec3(-s, c, 0), glm::dvec3(0, 0, 1));
    EXPECT_FALSE(geometry.isMirrored());
    geometry.direction[2] = -geometry.direction[2]; // slices ordered against the normal
    EXPECT_TRUE(geometry.isMirrored());
}

// Each halved voxel is its block's mean (padding and NaN left out, rounded for integers) and
// lies at the block's centre, on a tilted, sheared stack too; odd last slices are dropped.
TEST(Volume, HalfResolutionAveragesBlocksAtTheirCentres)
{
    const glm::uvec3 dims{6, 4, 5};
    std::vector<std::int16_t> values(std::size_t(dims.x) * dims.y * dims.z);
    for (std::size_t n = 0; n < values.size(); ++n)
        values[n] = std::int16_t(n % 7 * 10);
    values[0] = -2000; // padding, in the first block
    VolumeGeometry geometry;
    geometry.spacing = {0.5, 0.7, 2.0};
    geometry.direction = glm::dmat3(0.0, 1.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0);
    for (std::uint32_t k = 0; k < dims.z; ++k) // uneven, sheared slices
        geometry.sliceOrigins.emplace_back(3.0 + 0.2 * k, -1.0, k * k * 0.5);
    Volume fine(dims, ScalarType::Int16, bytesOf(values), geometry, {2.0, -5.0});
    VolumeMetadata metadata;
    metadata.paddingValue = -2000.0;
    fine.setMetadata(metadata);

    const Volume half = halfResolution(fine);
    ASSERT_EQ(half.dims(), glm::uvec3(3, 2, 2));
    EXPECT_EQ(half.type(), ScalarType::Int16);
    EXPECT_EQ(half.rescale().slope, 2.0);
    for (std::uint32_t k = 0; k < 2; ++k)
        for (std::uint32_t j = 0; j < 2; ++j)
            for (std::uint32_t i = 0; i < 3; ++i) {
                double sum = 0.0;
                int count = 0;
                glm::dvec3 centre(0.0);
                for (std::uint32_t c = 0; c < 8; ++c) {
                    const glm::uvec3 v(2 * i + (c & 1), 2 * j + (c >> 1 & 1), 2 * k + (c >> 2));
                    centre += fine.geometry().toPhysical(glm::dvec3(v)) / 8.0;
                    const float value = fine.valueAt(v.x, v.y, v.z);
                    if (value == -2000.0f) continue;
                    sum += value;
                    ++count;
                }
                EXPECT_EQ(half.valueAt(i, j, k), float(std::llround(sum / count)))
                    << i << " " << j << " " << k;
                const glm::dvec3 at = half.geometry().toPhysical(glm::dvec3(i, j, k));
                for (int a = 0; a < 3; ++a)
                    EXPECT_NEAR(at[a], centre[a], 1e-9) << i << " " << j << " " << k;
            }
    EXPECT_THROW(
        halfResolution(Volume({3, 8, 8}, ScalarType::UInt8, std::vector<std::byte>(3 * 8 * 8))),
        Error);
}

} // namespace
} // namespace isoview
