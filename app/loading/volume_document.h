// The volume the window shows and what was derived from it on the loading thread: the
// histogram, the suggested isovalue, and where it came from. Immutable once loaded, shared
// between the widgets.
#pragma once

#include "io/volume_loader.h"
#include "volume/histogram.h"
#include "volume/volume.h"
#include "volume/volume_series.h"

#include <QString>
#include <memory>
#include <optional>
#include <vector>

namespace isoview::app {

struct VolumeDocument {
    std::shared_ptr<const Volume> volume;
    // A volume of several on one grid (time points, echoes: io::volumesOnOneGrid): all of them,
    // and which one `volume` is; null for a single volume.
    std::shared_ptr<const VolumeSeries> series;
    std::size_t timePoint = 0;
    // The source's series entry of each time point (io::volumesOnOneGrid): what a session saves
    // as its series to come back at the time point shown.
    std::vector<std::size_t> seriesEntries;
    // With a series: each time point's histogram and that of them all, in the same bins (over
    // every time point's values, as realRange is); `histogram` is then the opened time
    // point's.
    std::vector<Histogram> timeHistograms;
    Histogram seriesHistogram;
    Histogram histogram;
    ValueRange realRange;           // finite real values (rescale applied, ordered)
    double suggestedIsovalue = 0.0; // real units
    QString path;                   // what the user opened (file or folder)
    QString displayName;            // file name, or the DICOM series description
    io::VolumeFormat format = io::VolumeFormat::Raw;
    io::LoadOptions options;    // how it was loaded (series, raw parameters), for recent files
    bool integerValued = false; // integer voxels with an integral rescale: whole-unit isovalues
    QString units() const { return QString::fromStdString(volume->metadata().units); }
};

// Loads the chosen volume of an opened source on the calling thread (any thread but the
// GUI's), without scanning again: the volume, its histogram and suggested isovalue; when it is
// one of several volumes on one grid, the others too, as its series. Throws like io::loadVolume,
// and InvalidInputError when a series' volumes turn out not to share a grid.
std::shared_ptr<VolumeDocument> loadVolumeDocument(const io::VolumeSource& source,
                                                   const io::VolumeChoice& choice,
                                                   io::LoadMonitor* monitor);

} // namespace isoview::app
