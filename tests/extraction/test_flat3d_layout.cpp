// Flat-3D tiling of the volume texture: pure arithmetic, so every limit is checked here without
// a GPU.
#include "core/error.h"
#include "extraction/flat3d_layout.h"

#include <gtest/gtest.h>

#include <set>

namespace isoview {
namespace {

TEST(Flat3DLayout, TilesEverySliceWithoutOverlapInsideTheLimit)
{
    for (glm::uvec3 dims :
         {glm::uvec3(64, 64, 64), glm::uvec3(103, 94, 161), glm::uvec3(256, 256, 113),
          glm::uvec3(7, 5, 3), glm::uvec3(512, 512, 512), glm::uvec3(16, 16, 1)}) {
        const Flat3DLayout l = Flat3DLayout::forVolume(dims, 16384);
        SCOPED_TRACE(std::to_string(dims.x) + "x" + std::to_string(dims.y) + "x" +
                     std::to_string(dims.z));
        EXPECT_LE(l.textureSize().x, 16384u);
        EXPECT_LE(l.textureSize().y, 16384u);
        EXPECT_GE(l.tilesPerRow * l.tileRows, dims.z);
        std::set<std::pair<unsigned, unsigned>> origins;
        for (unsigned z = 0; z < dims.z; ++z) {
            const glm::uvec2 o = l.texelOf({0, 0, z});
            const glm::uvec2 last = l.texelOf({dims.x - 1, dims.y - 1, z});
            EXPECT_LT(last.x, l.textureSize().x);
            EXPECT_LT(last.y, l.textureSize().y);
            EXPECT_TRUE(origins.insert({o.x, o.y}).second);
        }
    }
}

TEST(Flat3DLayout, NearSquareTexture)
{
    const Flat3DLayout l = Flat3DLayout::forVolume({256, 256, 113}, 16384);
    const double ratio = double(l.textureSize().x) / double(l.textureSize().y);
    EXPECT_GT(ratio, 0.5);
    EXPECT_LT(ratio, 2.0);
}

TEST(Flat3DLayout, TooLargeNamesTheLimit)
{
    for (glm::uvec3 dims : {glm::uvec3(1024, 1024, 1024), glm::uvec3(20000, 4, 4)}) {
        try {
            Flat3DLayout::forVolume(dims, 16384);
            ADD_FAILURE() << "accepted";
        } catch (const GlError& e) {
            EXPECT_NE(std::string(e.what()).find("GL_MAX_TEXTURE_SIZE of 16384"), std::string::npos)
                << e.what();
        }
    }
}

} // namespace
} // namespace isoview
