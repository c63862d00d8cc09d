#include "core/tree/tree_export.h"

#include "core/common/atomic_file.h"
#include "core/common/format.h"
#include "core/hmm/decoding.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

namespace cx {

namespace {

Eigen::VectorXd rootOccupancy(const TreeSegmentation& segmentation, int numStates) {
    Eigen::VectorXd occupancy = Eigen::VectorXd::Zero(numStates);
    for (const auto& chrom : segmentation.states.front()) {
        for (const std::uint16_t state : chrom) {
            if (state < numStates) {
                occupancy[state] += 1;
            }
        }
    }
    return occupancy;
}

std::string absolutePath(const std::filesystem::path& path) {
    std::error_code error;
    const std::filesystem::path full = std::filesystem::absolute(path, error);
    return (error ? path : full.lexically_normal()).string();
}

} // namespace

StateNaming treeStateNaming(const MultiCellTracks& tracks, const TreeHmmParameters& model,
                            const TreeSegmentation& segmentation) {
    return nameStates(model.emissions.front(), rootOccupancy(segmentation, model.numStates),
                      tracks.markNames);
}

std::string treeStatesTsv(const StateNaming& naming, const std::vector<std::string>& labels) {
    const auto k = static_cast<int>(naming.names.size());
    const Eigen::VectorXd& occupancy = naming.weights;
    const double total = occupancy.sum();
    std::string out = "state\tname\tcolour\troot_occupancy\n";
    for (int s = 0; s < k; ++s) {
        const auto i = static_cast<size_t>(s);
        out += labels[i] + '\t' + naming.names[i] + '\t' + rgbText(naming.colours[i]) + '\t' +
               formatNumber(total > 0 ? occupancy[s] / total : 0.0, 6) + '\n';
    }
    return out;
}

std::vector<std::string>
writeTreeSegmentFiles(const std::string& outDir, const MultiCellTracks& tracks,
                      const TreeSegmentation& segmentation, const std::vector<std::string>& labels,
                      const std::vector<std::string>& colours, const std::string& description,
                      const std::vector<std::string>& extraFiles) {
    const std::filesystem::path dir(outDir);
    std::vector<std::string> files;
    for (int v = 0; v < tracks.numCells(); ++v) {
        const ChromatinData data = tracks.cellData(v);
        Segmentation seg;
        seg.numStates = static_cast<int>(labels.size());
        seg.states = segmentation.states[static_cast<size_t>(v)];
        std::ostringstream bed;
        writeSampleTracksBed9(bed, data, seg, labels, description, {}, colours);
        const std::filesystem::path file =
            dir / ("segments_" + fileNamePart(tracks.cells[static_cast<size_t>(v)]) + ".bed");
        writeFileAtomically(file, bed.str());
        files.push_back(absolutePath(file));
    }
    std::vector<std::string> browserFiles = files;
    for (const auto& extra : extraFiles) {
        browserFiles.push_back(absolutePath(extra));
    }
    const std::int64_t firstEnd = std::min<std::int64_t>(
        tracks.chromBins.empty() ? 0 : tracks.chromBins.front() * tracks.binSize, 100000);
    writeFileAtomically(dir / "igv_batch.txt",
                        igvBatchScript(browserFiles, tracks.chroms.empty()
                                                         ? std::string()
                                                         : tracks.chroms.front() + ":1-" +
                                                               std::to_string(firstEnd)));
    return files;
}

} // namespace cx
