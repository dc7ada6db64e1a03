// Test tool: prints what extractLabelSurfacesCpu makes of a label map, one line per label, for
// an independent check (check_label_surfaces_with_vtk.py compares it with VTK's discrete
// Flying Edges).
//
// Usage: isoview_label_surfaces_report VOLUME [LABEL...]   (no labels: every label)
// Output: a '#' header line, then per label, ascending:
//   label voxels vertices triangles xmin ymin zmin xmax ymax zmax
// with the mesh's welded vertex and triangle counts and the bounds of its positions in index
// space (all 0 for an empty mesh). Exit status 1 with a message on stderr when it fails.
#include "extraction/label_surfaces_cpu.h"
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
        for (int a = 2; a < argc; ++a)
            wanted.push_back(std::uint32_t(std::stoul(argv[a])));
        const LabelStatistics stats = analyseLabels(volume);
        std::printf("# label voxels vertices triangles xmin ymin zmin xmax ymax zmax\n");
        for (const LabelSurface& s : extractLabelSurfacesCpu(volume, stats, wanted)) {
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
