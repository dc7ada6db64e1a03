#include "loading/volume_document.h"

#include "volume/isovalue_suggestion.h"

#include <QFileInfo>
#include <algorithm>
#include <cmath>

namespace isoview::app {
namespace {

bool isIntegerType(ScalarType t)
{
    return t != ScalarType::Float32 && t != ScalarType::Float64;
}

bool isWhole(double x)
{
    return std::isfinite(x) && std::floor(x) == x;
}

// The other volumes on the chosen one's grid, when it has any: the document's series.
void loadSeries(const io::VolumeSource& source, const io::VolumeChoice& choice,
                const std::shared_ptr<const Volume>& chosenVolume, io::LoadMonitor* monitor,
                VolumeDocument& doc)
{
    if (source.series.size() < 2) return;
    const std::size_t chosen = choice.seriesIndex.value_or(source.defaultSeries);
    const std::vector<std::size_t> group = io::volumesOnOneGrid(source, chosen);
    if (group.size() < 2) return;
    std::vector<std::shared_ptr<const Volume>> volumes;
    std::vector<std::string> labels;
    for (std::size_t k = 0; k < group.size(); ++k) {
        labels.push_back(source.series[group[k]].volumeLabel);
        if (group[k] == chosen) {
            doc.timePoint = k;
            volumes.push_back(chosenVolume);
            continue;
        }
        io::reportProgress(monitor, "loading the series' volumes", k, group.size());
        io::VolumeChoice other = choice;
        other.seriesIndex = group[k];
        volumes.push_back(std::make_shared<const Volume>(io::loadVolume(source, other, monitor)));
    }
    doc.series = std::make_shared<const VolumeSeries>(std::move(volumes), std::move(labels));
    doc.seriesEntries = group;
}

} // namespace

std::shared_ptr<VolumeDocument> loadVolumeDocument(const io::VolumeSource& source,
                                                   const io::VolumeChoice& choice,
                                                   io::LoadMonitor* monitor)
{
    const QString path = QString::fromStdString(source.path.string());
    auto doc = std::make_shared<VolumeDocument>();
    doc->path = path;
    doc->options = choice;
    doc->format = source.format;
    auto volume = std::make_shared<Volume>(io::loadVolume(source, choice, monitor));
    loadSeries(source, choice, volume, monitor, *doc);
    io::reportProgress(monitor, "computing the histogram", 0, 1);
    doc->histogram = computeHistogram(*volume);
    doc->realRange = volume->realRange();
    if (doc->series) {
        // Histograms that line up bin for bin, one per time point and one of them all, over
        // the values of every time point (so are the isovalue's and the editor's ranges).
        std::vector<const Volume*> volumes;
        for (std::size_t t = 0; t < doc->series->size(); ++t)
            volumes.push_back(doc->series->volume(t).get());
        const Histogram layout = histogramLayoutFor(volumes);
        for (const Volume* v : volumes) {
            doc->timeHistograms.push_back(computeHistogram(*v, layout));
            doc->realRange.min = std::min(doc->realRange.min, v->realRange().min);
            doc->realRange.max = std::max(doc->realRange.max, v->realRange().max);
        }
        doc->seriesHistogram = sumHistograms(doc->timeHistograms);
        doc->histogram = doc->timeHistograms[doc->timePoint];
    }
    io::reportProgress(monitor, "computing the histogram", 1, 1);
    doc->suggestedIsovalue = suggestIsovalue(doc->histogram, volume->metadata());
    doc->integerValued = isIntegerType(volume->type()) && isWhole(volume->rescale().slope) &&
                         isWhole(volume->rescale().intercept);
    // Integer data starts between two stored values: a whole number would put vertices on the
    // voxels holding it.
    if (doc->integerValued && doc->realRange.max - doc->realRange.min >= 1.0) {
        doc->suggestedIsovalue = std::clamp(std::floor(doc->suggestedIsovalue) + 0.5,
                                            doc->realRange.min, doc->realRange.max - 0.5);
    }
    // A DICOM series is named by its description (its files' names say nothing); any other file
    // by its name: a NIfTI's description is the scanner's note ("TE=30;Time=…"), a NRRD's
    // content a free text.
    const std::string& description = volume->metadata().seriesDescription;
    doc->displayName = source.format == io::VolumeFormat::Dicom && !description.empty()
                           ? QString::fromStdString(description)
                           : QFileInfo(path).fileName();
    doc->volume = std::move(volume);
    return doc;
}

} // namespace isoview::app
