#include "volume/volume_slice.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

namespace isoview {

namespace {

struct PatientView {
    int normal; // the LPS axis the view looks along
    glm::dvec3 right;
    glm::dvec3 down;
    std::array<std::string_view, 4> letters; // left, right, top, bottom
};

// Radiological convention: the patient's right on the screen's left, anterior and superior up.
PatientView patientView(SliceOrientation orientation)
{
    switch (orientation) {
    case SliceOrientation::Axial: return {2, {1, 0, 0}, {0, 1, 0}, {"R", "L", "A", "P"}};
    case SliceOrientation::Coronal: return {1, {1, 0, 0}, {0, 0, -1}, {"R", "L", "S", "I"}};
    case SliceOrientation::Sagittal: return {0, {0, 1, 0}, {0, 0, -1}, {"A", "P", "S", "I"}};
    }
    return {2, {1, 0, 0}, {0, 1, 0}, {}};
}

glm::dvec3 axisVector(int axis)
{
    glm::dvec3 v(0.0);
    v[axis] = 1.0;
    return v;
}

// Copies a plane of voxels of type T into floats, row after row: `first` is the element index
// of pixel (0, 0), the steps are the element strides of a column and a row (negative when the
// view flips them). One typed pass: a call and a type switch per voxel (Volume::valueAt) made
// the window's three slices of a 275x347x245 volume cost about 9 ms of its GUI thread.
template <class T>
void copyPlane(const std::byte* voxels, std::ptrdiff_t first, std::ptrdiff_t columnStep,
               std::ptrdiff_t rowStep, int width, int height, float* out)
{
    for (int y = 0; y < height; ++y) {
        std::ptrdiff_t at = first + rowStep * y;
        for (int x = 0; x < width; ++x, at += columnStep) {
            T value;
            std::memcpy(&value, voxels + at * std::ptrdiff_t(sizeof(T)), sizeof(T));
            *out++ = static_cast<float>(value);
        }
    }
}

} // namespace

std::string_view sliceOrientationName(SliceOrientation orientation)
{
    switch (orientation) {
    case SliceOrientation::Axial: return "axial";
    case SliceOrientation::Coronal: return "coronal";
    case SliceOrientation::Sagittal: return "sagittal";
    }
    return "?";
}

SliceAxes sliceAxes(const Volume& volume, SliceOrientation orientation)
{
    const glm::dmat3& dir = volume.geometry().direction;
    SliceAxes axes;
    if (volume.metadata().patientSpace) {
        const PatientView view = patientView(orientation);
        // The index axis closest to each patient axis: normal first, then screen right.
        axes.normalAxis = 0;
        for (int a = 1; a < 3; ++a) {
            if (std::abs(dir[a][view.normal]) > std::abs(dir[axes.normalAxis][view.normal]))
                axes.normalAxis = a;
        }
        int rest[2];
        int n = 0;
        for (int a = 0; a < 3; ++a) {
            if (a != axes.normalAxis) rest[n++] = a;
        }
        const bool firstIsColumn = std::abs(glm::dot(dir[rest[0]], view.right)) >=
                                   std::abs(glm::dot(dir[rest[1]], view.right));
        axes.columnAxis = firstIsColumn ? rest[0] : rest[1];
        axes.rowAxis = firstIsColumn ? rest[1] : rest[0];
        axes.flipColumns = glm::dot(dir[axes.columnAxis], view.right) < 0.0;
        axes.flipRows = glm::dot(dir[axes.rowAxis], view.down) < 0.0;
        axes.screenRight = view.right;
        axes.screenDown = view.down;
        axes.edgeLetters = view.letters;
        return axes;
    }
    // Index planes, shown with k (or j) growing upward in the views that contain it, as a
    // patient's superior side would be.
    switch (orientation) {
    case SliceOrientation::Axial: axes = {2, 0, 1, false, false}; break;
    case SliceOrientation::Coronal: axes = {1, 0, 2, false, true}; break;
    case SliceOrientation::Sagittal: axes = {0, 1, 2, false, true}; break;
    }
    const glm::dvec3 right = dir[axes.columnAxis] * (axes.flipColumns ? -1.0 : 1.0);
    const glm::dvec3 down = dir[axes.rowAxis] * (axes.flipRows ? -1.0 : 1.0);
    axes.screenRight = glm::length(right) > 0.0 ? glm::normalize(right) : axisVector(0);
    axes.screenDown = glm::length(down) > 0.0 ? glm::normalize(down) : axisVector(1);
    return axes;
}

std::uint32_t sliceCount(const Volume& volume, SliceOrientation orientation)
{
    return volume.dims()[sliceAxes(volume, orientation).normalAxis];
}

VolumeSlice extractSlice(const Volume& volume, SliceOrientation orientation,
                         std::uint32_t sliceIndex)
{
    VolumeSlice s;
    s.orientation = orientation;
    s.axes = sliceAxes(volume, orientation);
    const glm::uvec3 dims = volume.dims();
    s.sliceIndex = std::min(sliceIndex, dims[s.axes.normalAxis] - 1);
    s.width = int(dims[s.axes.columnAxis]);
    s.height = int(dims[s.axes.rowAxis]);
    s.rescale = volume.rescale();
    s.geometry = volume.geometry();
    s.stored.resize(std::size_t(s.width) * std::size_t(s.height));
    // The values Volume::valueAt gives, without a call per voxel.
    const std::ptrdiff_t stride[3] = {1, std::ptrdiff_t(dims.x),
                                      std::ptrdiff_t(dims.x) * std::ptrdiff_t(dims.y)};
    const std::ptrdiff_t column = stride[s.axes.columnAxis];
    const std::ptrdiff_t row = stride[s.axes.rowAxis];
    const std::ptrdiff_t first = std::ptrdiff_t(s.sliceIndex) * stride[s.axes.normalAxis] +
                                 (s.axes.flipColumns ? std::ptrdiff_t(s.width - 1) * column : 0) +
                                 (s.axes.flipRows ? std::ptrdiff_t(s.height - 1) * row : 0);
    const std::ptrdiff_t columnStep = s.axes.flipColumns ? -column : column;
    const std::ptrdiff_t rowStep = s.axes.flipRows ? -row : row;
    const auto copy = [&](auto typed) {
        using T = decltype(typed);
        copyPlane<T>(volume.bytes(), first, columnStep, rowStep, s.width, s.height,
                     s.stored.data());
    };
    switch (volume.type()) {
    case ScalarType::UInt8: copy(std::uint8_t{}); break;
    case ScalarType::Int8: copy(std::int8_t{}); break;
    case ScalarType::UInt16: copy(std::uint16_t{}); break;
    case ScalarType::Int16: copy(std::int16_t{}); break;
    case ScalarType::UInt32: copy(std::uint32_t{}); break;
    case ScalarType::Int32: copy(std::int32_t{}); break;
    case ScalarType::Float32: copy(float{}); break;
    case ScalarType::Float64: copy(double{}); break;
    }
    return s;
}

glm::dvec3 VolumeSlice::indexAt(glm::dvec2 pixel) const
{
    glm::dvec3 index(0.0);
    index[axes.normalAxis] = double(sliceIndex);
    index[axes.columnAxis] = axes.flipColumns ? double(width - 1) - pixel.x : pixel.x;
    index[axes.rowAxis] = axes.flipRows ? double(height - 1) - pixel.y : pixel.y;
    return index;
}

glm::dvec3 VolumeSlice::toPhysical(glm::dvec2 pixel) const
{
    return geometry.toPhysical(indexAt(pixel));
}

glm::dvec2 VolumeSlice::toDisplay(glm::dvec2 pixel) const
{
    const glm::dvec3 p = toPhysical(pixel);
    return {glm::dot(p, axes.screenRight), glm::dot(p, axes.screenDown)};
}

std::optional<glm::dvec2> VolumeSlice::pixelAtDisplay(glm::dvec2 display) const
{
    if (width == 0 || height == 0) return std::nullopt;
    // toDisplay is affine in the pixel, except across the measured slices of an uneven or
    // tilted stack when k is one of the image's axes: there it is affine between two slices.
    // Each piece is inverted and the one whose k interval holds the answer wins.
    const bool kInPlane = axes.normalAxis != 2 && geometry.sliceOrigins.size() >= 2;
    const std::size_t pieces = kInPlane ? geometry.sliceOrigins.size() - 1 : 1;
    const int kExtent = axes.columnAxis == 2 ? width : height;
    const double kLast = double(kExtent - 1);
    const glm::dvec3 colStep = axisVector(axes.columnAxis) * (axes.flipColumns ? -1.0 : 1.0);
    const glm::dvec3 rowStep = axisVector(axes.rowAxis) * (axes.flipRows ? -1.0 : 1.0);
    for (std::size_t piece = 0; piece < pieces; ++piece) {
        const double kMid = double(piece) + 0.5;
        const glm::dmat3 jac = geometry.jacobianAt(kMid);
        const glm::dvec3 physX = jac * colStep;
        const glm::dvec3 physY = jac * rowStep;
        const glm::dmat2 a(glm::dot(physX, axes.screenRight), glm::dot(physX, axes.screenDown),
                           glm::dot(physY, axes.screenRight), glm::dot(physY, axes.screenDown));
        if (std::abs(glm::determinant(a)) < 1e-12) continue;
        // A reference pixel inside this piece.
        glm::dvec2 ref(0.0);
        if (kInPlane) {
            const double kPixel = [&] {
                const bool flip = axes.columnAxis == 2 ? axes.flipColumns : axes.flipRows;
                return flip ? kLast - kMid : kMid;
            }();
            (axes.columnAxis == 2 ? ref.x : ref.y) = kPixel;
        }
        const glm::dvec2 pixel = ref + glm::inverse(a) * (display - toDisplay(ref));
        if (pixel.x < -0.5 || pixel.y < -0.5 || pixel.x > width - 0.5 || pixel.y > height - 0.5)
            continue;
        if (kInPlane) {
            const double k = indexAt(pixel).z;
            const double lo = piece == 0 ? -0.5 : double(piece);
            const double hi = piece + 1 == pieces ? kLast + 0.5 : double(piece + 1);
            if (k < lo || k > hi) continue;
        }
        return pixel;
    }
    return std::nullopt;
}

} // namespace isoview
