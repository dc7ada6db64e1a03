#!/usr/bin/python3
"""One-off script that made resources/samples/mr_head_128x128x85_uint16.raw.

It is kept so that the sample can be checked and rebuilt; nothing in the build runs it.

Input:  the 170-slice sagittal T1 MPRAGE series dicom/mr_philips_mprage_sag/ of the shared test
        data (256 x 256 x 170, 1 mm, uint16 stored values; BSD-2-Clause, see LICENSE here).
Output: 128 x 128 x 85 little-endian uint16, X fastest, 2 mm isotropic: every output voxel is
        the mean of a 2 x 2 x 2 block of STORED values (no rescale applied), rounded to the
        nearest integer (halves round up).
        X = image columns, Y = image rows, Z = slices in InstanceNumber order.

Needs:  Python 3 with pydicom and numpy (Debian 12: apt-get install python3-pydicom
        python3-numpy).

Usage:  make_mr_head_sample.py SERIES_FOLDER OUTPUT.raw
        e.g. make_mr_head_sample.py ../shared/data/dicom/mr_philips_mprage_sag \\
                 resources/samples/mr_head_128x128x85_uint16.raw
It prints the geometry of the result and a histogram of its values.
"""

import pathlib
import sys

import numpy as np
import pydicom

EXPECTED_SHAPE = (170, 256, 256)  # slices, rows, columns


def load_series(folder):
    datasets = [pydicom.dcmread(str(path)) for path in sorted(pathlib.Path(folder).glob("*.dcm"))]
    datasets.sort(key=lambda ds: int(ds.InstanceNumber))
    for ds in datasets:
        # The averaging below assumes plain unsigned 16-bit stored values.
        if (ds.BitsAllocated, ds.PixelRepresentation) != (16, 0):
            sys.exit("%s: expected unsigned 16-bit pixels" % ds.filename)
    volume = np.stack([ds.pixel_array.astype(np.uint16) for ds in datasets])
    if volume.shape != EXPECTED_SHAPE:
        sys.exit("expected %s voxels (slices, rows, columns), found %s"
                 % (EXPECTED_SHAPE, volume.shape))
    return datasets, volume


def downsample_2x2x2(volume):
    """Mean of each 2x2x2 block, rounded to nearest (integer arithmetic, halves up)."""
    z, y, x = (n // 2 for n in volume.shape)
    blocks = volume.astype(np.uint32).reshape(z, 2, y, 2, x, 2)
    sums = blocks.sum(axis=(1, 3, 5))
    return ((sums + 4) // 8).astype(np.uint16)


def describe_geometry(datasets):
    first, second = datasets[0], datasets[1]
    orientation = np.array([float(v) for v in first.ImageOrientationPatient])
    row_direction, column_direction = orientation[:3], orientation[3:]
    step = (np.array([float(v) for v in second.ImagePositionPatient])
            - np.array([float(v) for v in first.ImagePositionPatient]))
    spacing = [float(v) for v in first.PixelSpacing]  # row spacing, column spacing
    # Index axes of the source: i along a row (+column index), j down the rows, k slice order.
    axes = np.column_stack([row_direction * spacing[1], column_direction * spacing[0], step])
    # The centre of output voxel (0, 0, 0) is the centre of source voxels (0..1, 0..1, 0..1).
    origin = np.array([float(v) for v in first.ImagePositionPatient]) + axes @ [0.5, 0.5, 0.5]
    print("source slice step (LPS mm): %s" % np.round(step, 5))
    print("output i axis (LPS): %s" % np.round(row_direction, 5))
    print("output j axis (LPS): %s" % np.round(column_direction, 5))
    print("output k axis (LPS): %s" % np.round(step / np.linalg.norm(step), 5))
    print("output origin, centre of voxel (0,0,0) (LPS mm): %s" % np.round(origin, 4))
    print("determinant of index->LPS: %+.4f" % np.linalg.det(axes))
    print("rescale slope %s, intercept %s"
          % (first.RescaleSlope, first.RescaleIntercept))


def print_histogram(sample):
    print("stored range %d..%d, mean %.1f" % (sample.min(), sample.max(), sample.mean()))
    edges = list(range(0, 1250, 50))
    counts, _ = np.histogram(sample, bins=edges + [65536])
    for low, count in zip(edges, counts):
        print("  %4d..%4d %8d" % (low, low + 49, count))


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    datasets, volume = load_series(argv[1])
    sample = downsample_2x2x2(volume)
    output = pathlib.Path(argv[2])
    # numpy order (z, y, x) written row-major puts x fastest; '<u2' fixes little-endian.
    output.write_bytes(sample.astype("<u2").tobytes(order="C"))
    expected_bytes = 128 * 128 * 85 * 2
    if output.stat().st_size != expected_bytes:
        sys.exit("%s has %d bytes, expected %d" % (output, output.stat().st_size, expected_bytes))
    print("wrote %s: %d bytes, %d x %d x %d (X x Y x Z) uint16"
          % (output, expected_bytes, sample.shape[2], sample.shape[1], sample.shape[0]))
    describe_geometry(datasets)
    print_histogram(sample)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
