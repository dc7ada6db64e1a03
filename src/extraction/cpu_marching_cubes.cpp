// CPU reference marching cubes on a volume's stored values. The algorithm itself lives in
// cell_marching.h, shared with the label surfaces:
//
//   Pass 1: visit the cells (z slowest, x fastest), classify the eight corners into a case
//           index and, for each vertex the case table lists, interpolate its position and
//           normal on the table's edge; append the triangles to an unwelded stream.
//   Pass 2: weld the stream by edge key, which is exact: every vertex is identified by the
//           grid edge it lies on, and neighbouring cells compute it identically.
#include "extraction/cpu_marching_cubes.h"

#include "core/error.h"
#include "extraction/cell_marching.h"

namespace isoview {
namespace {

// The field of the volume's stored values, as the GPU samples them.
struct StoredValues {
    const Volume& volume;
    float operator()(glm::uvec3 p) const
    {
        return volume.valueAt(marching::linearIndex(volume.dims(), p));
    }
};

} // namespace

glm::vec3 indexGradient(const Volume& volume, glm::uvec3 voxel)
{
    return marching::fieldGradient(StoredValues{volume}, volume.dims(), voxel);
}

IsoMesh extractIsosurfaceCpu(const Volume& volume, StoredValue isovalue)
{
    return extractIsosurfaceCpu(volume, isovalue, VoxelBox::whole(volume.dims()));
}

IsoMesh extractIsosurfaceCpu(const Volume& volume, StoredValue isovalue, const VoxelBox& crop)
{
    if (!crop.fitsIn(volume.dims())) throw Error("the crop box does not fit the volume");
    return marching::marchCells(StoredValues{volume}, volume.dims(), volume.geometry(),
                                isovalue.classified(), crop);
}

} // namespace isoview
