#include "ui/framework/reads_binarization.h"

#include "core/common/atomic_file.h"
#include "core/common/error.h"

#include <QDateTime>
#include <QFileInfo>

#include <algorithm>
#include <filesystem>

namespace cx::ui {

QStringList ReadsBinarization::inputFiles() const {
    QStringList out;
    for (const Entry& entry : entries) {
        for (const QString& file : {entry.file, entry.control}) {
            if (!file.isEmpty() && !out.contains(file)) {
                out << file;
            }
        }
    }
    return out;
}

QStringList ReadsBinarization::cells() const {
    QStringList out;
    for (const Entry& entry : entries) {
        if (!out.contains(entry.cell.trimmed())) {
            out << entry.cell.trimmed();
        }
    }
    return out;
}

QStringList binarizeReads(const ReadsBinarization& reads, const cx::CancelToken& cancel,
                          const cx::ProgressFn& progress) {
    if (!reads.isValid()) {
        throw cx::InputError("no read files to binarize");
    }
    const std::filesystem::path outDir = reads.outDir.toStdString();
    std::error_code error;
    std::filesystem::create_directories(outDir, error);
    if (error || !std::filesystem::is_directory(outDir)) {
        throw cx::InputError(outDir.string(), 0,
                             "cannot create the folder for the binarized files" +
                                 (error ? ": " + error.message() : std::string()));
    }
    // The table as ChromHMM takes it, with absolute paths (kept next to the binarized files).
    std::string table;
    for (const ReadsBinarization::Entry& entry : reads.entries) {
        for (const QString& field : {entry.cell, entry.mark}) {
            if (field.trimmed().isEmpty() || field.contains(QLatin1Char('\t'))) {
                throw cx::InputError(entry.file.toStdString(), 0,
                                     "every read file needs a cell and a mark (no tabs)");
            }
        }
        table += entry.cell.trimmed().toStdString() + '\t' + entry.mark.trimmed().toStdString() +
                 '\t' + entry.file.toStdString();
        if (!entry.control.isEmpty()) {
            table += '\t' + entry.control.toStdString();
        }
        table += '\n';
    }
    const std::string tablePath = (outDir / "cellmarkfiletable.txt").string();
    cx::writeFileAtomically(std::filesystem::path(tablePath), table);
    cx::BinarizeResult result;
    try {
        result = cx::binarize(reads.chromSizes.toStdString(), "/", tablePath, {}, outDir.string(),
                              reads.options, cancel, progress);
    } catch (...) {
        std::filesystem::remove(tablePath, error); // nothing of a failed run stays behind
        throw;
    }
    QStringList files;
    for (const cx::BinarizedFile& file : result.files) {
        files << QString::fromStdString(file.path);
    }
    if (files.isEmpty()) {
        throw cx::InputError(reads.chromSizes.toStdString(), 0,
                             "no chromosome of the sizes file has reads");
    }
    return files;
}

std::optional<cx::ReadsSection> toReadsSection(const ReadsBinarization* reads) {
    if (reads == nullptr || !reads->isValid()) {
        return std::nullopt;
    }
    cx::ReadsSection out;
    const auto absolute = [](const QString& path) {
        return std::filesystem::path(QFileInfo(path).absoluteFilePath().toStdString());
    };
    for (const ReadsBinarization::Entry& entry : reads->entries) {
        out.entries.push_back(
            {entry.cell.toStdString(), entry.mark.toStdString(), absolute(entry.file),
             entry.control.isEmpty() ? std::filesystem::path() : absolute(entry.control)});
    }
    out.chromSizes = absolute(reads->chromSizes);
    out.outDir = absolute(reads->outDir);
    out.options = reads->options;
    return out;
}

std::shared_ptr<const ReadsBinarization> fromReadsSection(const cx::ReadsSection& section) {
    auto reads = std::make_shared<ReadsBinarization>();
    for (const auto& entry : section.entries) {
        reads->entries.push_back({QString::fromStdString(entry.cell),
                                  QString::fromStdString(entry.mark),
                                  QString::fromStdString(entry.file.string()),
                                  QString::fromStdString(entry.control.string())});
    }
    reads->chromSizes = QString::fromStdString(section.chromSizes.string());
    reads->outDir = QString::fromStdString(section.outDir.string());
    reads->options = section.options;
    return reads;
}

bool binarizedUpToDate(const QStringList& tracks, const ReadsBinarization& reads) {
    QDateTime newestInput;
    for (const QString& path : reads.inputFiles() + QStringList{reads.chromSizes}) {
        const QFileInfo info(path);
        if (!info.exists()) {
            return true; // nothing to binarize from: use the saved tracks (their load reports)
        }
        newestInput = std::max(newestInput, info.lastModified());
    }
    for (const QString& track : tracks) {
        const QFileInfo info(track);
        if (!info.exists() || info.lastModified() < newestInput) {
            return false;
        }
    }
    return true;
}

} // namespace cx::ui
