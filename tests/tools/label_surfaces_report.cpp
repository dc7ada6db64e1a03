// Test tool: prints what extractLabelSurfacesCpu (or, with --sigma,
// extractSmoothedLabelSurfacesCpu) makes of a label map, one line per label, for an independent
// check (check_label_surfaces_with_vtk.py compares it with VTK's Flying Edges).
//
// Usage: isoview_label_surfaces_report VOLUME [--sigma=MM] [LABEL...]   (no labels: every label)
// Output: a '#' header line, then per label, ascending:
//   label voxels vertices triangles xmin ymin zmin xmax ymax zmax
// with the mesh's welded vertex and triangle counts and the bounds of its positions in index
// space (all 0 for an empty mesh). Exit status 1 with a message on stderr when it fails.
#include "extraction/label_surfaces_cpu.h"
#include "extraction/smoothed_label_surfaces.h"
#include "io/volume_loader.h"

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    using namespace isoview;
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s VOLUME [LABEL...]\n", argv[0]);
        return 2;
    }
    try {
        const Volume volume = io::loadVolume(argv[1]);
        std::vector<std::uint32_t> wanted;
        double sigmaMm = 0.0;
        for (int a = 2; a < argc; ++a) {
            const std::string arg = argv[a];
            if (arg.rfind("--sigma=", 0) == 0)
                sigmaMm = std::stod(arg.substr(8));
            else
                wanted.push_back(std::uint32_t(std::stoul(arg)));
        }
        const LabelStatistics stats = analyseLabels(volume);
        std::printf("# label voxels vertices triangles xmin ymin zmin xmax ymax zmax\n");
        const std::vector<LabelSurface> surfaces =
            sigmaMm > 0.0 ? extractSmoothedLabelSurfacesCpu(volume, stats, sigmaMm, wanted)
                          : extractLabelSurfacesCpu(volume, stats, wanted);
        for (const LabelSurface& s : surfaces) {
            const LabelInfo* info = stats.find(s.label);
            glm::vec3 lo(0.0f);
            glm::vec3 hi(0.0f);
            if (!s.mesh.positions.empty()) lo = hi = s.mesh.positions.front();
            for (const glm::vec3& p : s.mesh.positions) {
                lo = glm::min(lo, p);
                hi = glm::max(hi, p);
            }
            std::printf("%u %llu %zu %zu %.9g %.9g %.9g %.9g %.9g %.9g\n", s.label,
                        info ? static_cast<unsigned long long>(info->voxelCount) : 0ull,
                        s.mesh.vertexCount(), s.mesh.triangleCount(), double(lo.x), double(lo.y),
                        double(lo.z), double(hi.x), double(hi.y), double(hi.z));
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
        return 1;
    }
    return 0;
}
