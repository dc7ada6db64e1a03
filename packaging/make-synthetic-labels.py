#!/usr/bin/python3
"""Writes the label map the label benchmarks use for issue 24's limits: SIZE^3 voxels (default
512) holding 65,535 labels (every uint16 label number but the background), as a MetaImage
(.mhd + .raw, uint16, 1 mm voxels), which isoview and VTK's reader both open.

The volume is cut into blocks along warped coordinates (x + 3 sin(y / 7), ...), so label
boundaries are curved surfaces, not the flat faces of boxes; block b gets label 1 + b % 65535,
so neighbouring blocks always differ and all 65,535 numbers occur once the volume holds that
many blocks (at 512^3: 43^3 = 79,507 blocks of 12 voxels). A margin of background surrounds it.

usage: packaging/make-synthetic-labels.py [OUT_DIR] [SIZE]
"""
import os
import sys

import numpy as np

out_dir = sys.argv[1] if len(sys.argv) > 1 else "build/bench"
size = int(sys.argv[2]) if len(sys.argv) > 2 else 512
block = 12
margin = 4
blocks_per_axis = -(-(size - 2 * margin) // block)
os.makedirs(out_dir, exist_ok=True)
name = f"synthetic_labels_{size}"
raw_path = os.path.join(out_dir, name + ".raw")

y, x = np.mgrid[0:size, 0:size].astype(np.float32)
with open(raw_path, "wb") as out:
    for z in range(size):
        wx = x + 3.0 * np.sin(y / 7.0)
        wy = y + 3.0 * np.sin(z / 9.0)
        wz = np.full_like(x, z) + 3.0 * np.sin(x / 11.0)
        bx = np.clip(((wx - margin) // block).astype(np.int64), 0, blocks_per_axis - 1)
        by = np.clip(((wy - margin) // block).astype(np.int64), 0, blocks_per_axis - 1)
        bz = np.clip(((wz - margin) // block).astype(np.int64), 0, blocks_per_axis - 1)
        index = bx + blocks_per_axis * (by + blocks_per_axis * bz)
        labels = (1 + index % 65535).astype(np.uint16)
        inside = (x >= margin) & (x < size - margin) & (y >= margin) & (y < size - margin)
        if z < margin or z >= size - margin:
            inside[:] = False
        labels[~inside] = 0
        out.write(labels.astype("<u2").tobytes())

with open(os.path.join(out_dir, name + ".mhd"), "w") as header:
    header.write(
        "ObjectType = Image\nNDims = 3\n"
        f"DimSize = {size} {size} {size}\n"
        "ElementSpacing = 1 1 1\nElementType = MET_USHORT\nBinaryData = True\n"
        f"BinaryDataByteOrderMSB = False\nElementDataFile = {name}.raw\n")
print(os.path.join(out_dir, name + ".mhd"))
