#include "core/io/binarize_counts.h"

#include "core/common/error.h"
#include "core/common/format.h"
#include "core/io/text_input.h"

#include <htslib/hts.h>
#include <htslib/sam.h>
#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <string_view>
#include <unistd.h>

namespace cx::binarize_detail {

namespace {

constexpr size_t kMaxUnknownContigs = 8;

/// Collects the counts of one file chromosome by chromosome. While the reads come in contiguous
/// per-chromosome blocks (sorted input), a finished chromosome is compressed to its spill file
/// and freed, so one chromosome's bins are in memory. When a chromosome comes back (unsorted
/// input), its spill is loaded again and from then on every chromosome stays in memory until
/// the end of the file: memory then grows to the genome's bins for this file, never with reads.
class CountSink {
public:
    CountSink(const Genome& genome, const std::filesystem::path& stem, FileCounts& counts)
        : m_genome(genome), m_stem(stem), m_counts(counts), m_open(genome.chromosomes.size()),
          m_spilled(genome.chromosomes.size(), 0) {
        m_counts.totals.assign(genome.chromosomes.size(), 0);
        m_counts.present.assign(genome.chromosomes.size(), 0);
    }

    void add(int chrom, std::int64_t bin) {
        if (chrom != m_current) {
            switchTo(chrom);
        }
        ++m_open[static_cast<size_t>(chrom)][static_cast<size_t>(bin)];
        ++m_counts.totals[static_cast<size_t>(chrom)];
        m_counts.present[static_cast<size_t>(chrom)] = 1;
    }

    void finish() {
        for (size_t c = 0; c < m_open.size(); ++c) {
            if (!m_open[c].empty()) {
                spill(static_cast<int>(c));
            }
        }
    }

private:
    void switchTo(int chrom) {
        if (m_current >= 0 && m_counts.summary.sorted) {
            spill(m_current);
        }
        auto& bins = m_open[static_cast<size_t>(chrom)];
        if (m_spilled[static_cast<size_t>(chrom)]) {
            // The chromosome came back: the input is not sorted by chromosome.
            m_counts.summary.sorted = false;
            bins.assign(static_cast<size_t>(m_genome.numBins[static_cast<size_t>(chrom)]), 0);
            std::vector<std::int32_t> loaded(bins.size(), 0);
            addSpilledCounts(m_counts, chrom, loaded);
            std::copy(loaded.begin(), loaded.end(), bins.begin());
            m_spilled[static_cast<size_t>(chrom)] = 0;
        } else if (bins.empty()) {
            bins.assign(static_cast<size_t>(m_genome.numBins[static_cast<size_t>(chrom)]), 0);
        }
        m_current = chrom;
    }

    void spill(int chrom) {
        auto& bins = m_open[static_cast<size_t>(chrom)];
        const uLong sourceBytes = static_cast<uLong>(bins.size() * sizeof(std::uint32_t));
        uLongf packedBytes = compressBound(sourceBytes);
        std::vector<Bytef> packed(packedBytes);
        if (compress2(packed.data(), &packedBytes, reinterpret_cast<const Bytef*>(bins.data()),
                      sourceBytes, 1) != Z_OK) {
            throw std::runtime_error("binarize: zlib could not compress counts");
        }
        const auto path = m_stem.string() + "." + std::to_string(chrom);
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(packed.data()),
                  static_cast<std::streamsize>(packedBytes));
        if (!out) {
            throw InputError(path, 0, "cannot write temporary counts (disk full?)");
        }
        m_spilled[static_cast<size_t>(chrom)] = 1;
        std::vector<std::uint32_t>().swap(bins);
    }

    const Genome& m_genome;
    std::filesystem::path m_stem;
    FileCounts& m_counts;
    std::vector<std::vector<std::uint32_t>> m_open;
    std::vector<char> m_spilled;
    int m_current = -1;
};

void noteUnknown(FileCounts& counts, std::string_view name) {
    ++counts.summary.otherContig;
    if (counts.unknownContigs.size() < kMaxUnknownContigs &&
        std::find(counts.unknownContigs.begin(), counts.unknownContigs.end(), name) ==
            counts.unknownContigs.end()) {
        counts.unknownContigs.emplace_back(name);
    }
}

/// ChromHMM's bin of a single read: 0-based start, exclusive end; C (and Java) integer division
/// truncates toward zero, so a − strand read ending within `shift` bp of the chromosome start
/// still lands in bin 0. ChromHMM's offsets are start − 0 and end − 1.
std::int64_t readBin(std::int64_t start, std::int64_t end, bool reverse,
                     const BinarizeOptions& options) {
    if (options.center) {
        return (start + end - 1) / (2 * static_cast<std::int64_t>(options.binSize));
    }
    if (reverse) {
        return (end - 1 - options.shift) / options.binSize;
    }
    return (start + options.shift) / options.binSize;
}

void addPeak(CountSink& sink, int chrom, std::int64_t start, std::int64_t end, std::int64_t numBins,
             std::int64_t binSize, FileCounts& counts) {
    const std::int64_t first = std::max<std::int64_t>(0, start / binSize);
    const std::int64_t last = std::min<std::int64_t>(numBins - 1, (end - 1) / binSize);
    if (first <= last) {
        ++counts.summary.counted;
    }
    for (std::int64_t bin = first; bin <= last; ++bin) {
        sink.add(chrom, bin);
    }
}

struct SamCloser {
    void operator()(samFile* file) const { sam_close(file); }
};
struct HeaderCloser {
    void operator()(sam_hdr_t* header) const { sam_hdr_destroy(header); }
};
struct RecordCloser {
    void operator()(bam1_t* record) const { bam_destroy1(record); }
};

void countAlignments(const std::string& path, const BinarizeOptions& options, const Genome& genome,
                     CountSink& sink, FileCounts& counts, const CancelToken& cancel) {
    hts_set_log_level(HTS_LOG_OFF); // errors are reported by us, naming the file
    std::error_code sizeError;
    if (std::filesystem::file_size(path, sizeError) == 0 && !sizeError) {
        throw InputError(path, 0, "empty file (0 bytes; expected BAM, SAM or CRAM)");
    }
    std::unique_ptr<samFile, SamCloser> file(sam_open(path.c_str(), "r"));
    if (!file) {
        throw InputError(path, 0, "cannot open as BAM/SAM/CRAM");
    }
    const htsFormat* format = hts_get_format(file.get());
    if (format->category != sequence_data) {
        char* description = hts_format_description(format);
        const std::string seen = description ? description : "unknown";
        std::free(description);
        throw InputError(path, 0, "not a BAM, SAM or CRAM file (htslib sees: " + seen + ")");
    }
    if (format->format == cram) {
        // Binarization needs no bases: without SEQ (and MD/NM) htslib decodes a CRAM without
        // its reference, so a CRAM opens where its FASTA is not (no REF_PATH lookup either).
        // Paired fragments need TLEN, which htslib 1.16 decodes only with the reference.
        int fields = SAM_QNAME | SAM_FLAG | SAM_RNAME | SAM_POS | SAM_MAPQ | SAM_CIGAR;
        if (options.paired) {
            fields |= SAM_RNEXT | SAM_PNEXT | SAM_TLEN;
        }
        hts_set_opt(file.get(), CRAM_OPT_REQUIRED_FIELDS, fields);
        hts_set_opt(file.get(), CRAM_OPT_DECODE_MD, 0);
    }
    std::unique_ptr<sam_hdr_t, HeaderCloser> header(sam_hdr_read(file.get()));
    if (!header) {
        throw InputError(path, 0, "cannot read the BAM/SAM/CRAM header (empty or truncated file?)");
    }
    if (format->format == bam && hts_check_EOF(file.get()) == 0) {
        throw InputError(path, 0,
                         "truncated BAM: the BGZF end-of-file marker is missing (incomplete "
                         "download or copy?)");
    }
    if (format->format == cram && hts_check_EOF(file.get()) == 0) {
        throw InputError(path, 0,
                         "truncated CRAM: the end-of-file container is missing (incomplete "
                         "download or copy?)");
    }
    const int numTargets = sam_hdr_nref(header.get());
    std::vector<int> chromOfTarget(static_cast<size_t>(std::max(numTargets, 0)), -1);
    for (int t = 0; t < numTargets; ++t) {
        chromOfTarget[static_cast<size_t>(t)] = genome.find(sam_hdr_tid2name(header.get(), t));
    }
    std::unique_ptr<bam1_t, RecordCloser> record(bam_init1());
    int status = 0;
    while ((status = sam_read1(file.get(), header.get(), record.get())) >= 0) {
        const bam1_t* b = record.get();
        if ((++counts.summary.records & 0xFFFF) == 0) {
            throwIfCancelled(cancel);
        }
        const std::uint16_t flag = b->core.flag;
        if (options.paired && !(flag & BAM_FPAIRED)) {
            throw InputError(path, 0,
                             "--paired was given, but read " + quoteForMessage(bam_get_qname(b)) +
                                 " is not paired");
        }
        if (flag & BAM_FUNMAP) {
            ++counts.summary.unmapped;
            continue;
        }
        if (options.paired && !((flag & BAM_FPROPER_PAIR) && (flag & BAM_FREAD1))) {
            continue; // one count per fragment: its first read, properly paired
        }
        const int tid = b->core.tid;
        const int chrom =
            tid >= 0 && tid < numTargets ? chromOfTarget[static_cast<size_t>(tid)] : -1;
        if (chrom < 0) {
            noteUnknown(counts,
                        tid >= 0 && tid < numTargets ? sam_hdr_tid2name(header.get(), tid) : "*");
            continue;
        }
        const std::int64_t start = b->core.pos;
        // As htsjdk's getAlignmentEnd: the reference span of the CIGAR (no CIGAR: 0 bp).
        const std::int64_t end = start + bam_cigar2rlen(b->core.n_cigar, bam_get_cigar(b));
        const std::int64_t numBins = genome.numBins[static_cast<size_t>(chrom)];
        if (options.format == BinarizeFormat::Peaks) {
            addPeak(sink, chrom, start, end, numBins, options.binSize, counts);
            continue;
        }
        std::int64_t bin = 0;
        if (options.paired) {
            // ChromHMM moves the fragment's outer end by half the template length (TLEN is
            // negative on the reverse read; Java's int division truncates, as C++'s does).
            const std::int64_t half = static_cast<std::int64_t>(b->core.isize) / 2;
            bin = (flag & BAM_FREVERSE) ? (end - 1 + half) / options.binSize
                                        : (start + half) / options.binSize;
        } else {
            bin = readBin(start, end, flag & BAM_FREVERSE, options);
        }
        if (bin >= 0 && bin < numBins) {
            sink.add(chrom, bin);
            ++counts.summary.counted;
        }
    }
    if (status < -1) {
        throw InputError(path, 0,
                         "truncated or corrupt after " + std::to_string(counts.summary.records) +
                             " records (htslib error " + std::to_string(status) + ")");
    }
}

bool parseCoordinate(std::string_view text, std::int64_t& value) {
    if (!text.empty() && text[0] == '+') {
        text.remove_prefix(1);
    }
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size();
}

void countBedLines(const std::string& path, const BinarizeOptions& options, const Genome& genome,
                   CountSink& sink, FileCounts& counts, const CancelToken& cancel) {
    LineReader reader(path);
    std::string_view line;
    std::string_view fields[6];
    const bool peaks = options.format == BinarizeFormat::Peaks;
    while (reader.next(line)) {
        const std::int64_t lineNumber = reader.lineNumber();
        if ((lineNumber & 0xFFFF) == 0) {
            throwIfCancelled(cancel);
        }
        ++counts.summary.records;
        // ChromHMM splits at tabs and spaces (runs count as one); the strand is the 6th field,
        // or the last one when there are 4 or 5.
        size_t numFields = 0;
        size_t i = 0;
        while (i < line.size()) {
            while (i < line.size() && (line[i] == '\t' || line[i] == ' ' || line[i] == '\r')) {
                ++i;
            }
            const size_t begin = i;
            while (i < line.size() && line[i] != '\t' && line[i] != ' ' && line[i] != '\r') {
                ++i;
            }
            if (i > begin) {
                if (numFields < 6) {
                    fields[numFields] = line.substr(begin, i - begin);
                }
                ++numFields;
            }
        }
        if (numFields == 0) {
            throw InputError(path, lineNumber, "empty line (ChromHMM refuses it too)");
        }
        const int chrom = genome.find(std::string(fields[0]));
        if (chrom < 0) {
            noteUnknown(counts, fields[0]);
            continue;
        }
        if (numFields < 3) {
            throw InputError(path, lineNumber,
                             "expected CHROM START END" + std::string(peaks ? "" : " … STRAND") +
                                 ", found " + std::to_string(numFields) + " field(s)");
        }
        std::int64_t start = 0;
        std::int64_t end = 0;
        if (!parseCoordinate(fields[1], start) || !parseCoordinate(fields[2], end)) {
            throw InputError(path, lineNumber,
                             "start and end must be integers, found " + quoteForMessage(fields[1]) +
                                 " and " + quoteForMessage(fields[2]));
        }
        const std::int64_t numBins = genome.numBins[static_cast<size_t>(chrom)];
        if (peaks) {
            addPeak(sink, chrom, start, end, numBins, options.binSize, counts);
            continue;
        }
        bool reverse = false;
        if (!options.center) {
            if (numFields < 4) {
                throw InputError(path, lineNumber,
                                 "no strand column (expected + or - in column 6, or the last "
                                 "column when there are fewer; or use --center)");
            }
            const std::string_view strand = fields[std::min<size_t>(numFields, 6) - 1];
            if (strand == "-") {
                reverse = true;
            } else if (strand != "+") {
                throw InputError(path, lineNumber,
                                 quoteForMessage(strand) + " is not a strand (+ or -)");
            }
        }
        const std::int64_t bin = readBin(start, end, reverse, options);
        if (bin >= 0 && bin < numBins) {
            sink.add(chrom, bin);
            ++counts.summary.counted;
        }
    }
    if (counts.summary.records == 0 && !peaks) { // a mark may have no peaks at all
        throw InputError(path, 0, "empty file (no reads)");
    }
}

} // namespace

SpillFolder::SpillFolder(const std::string& parent) {
    const std::filesystem::path base =
        parent.empty() ? std::filesystem::temp_directory_path() : std::filesystem::path(parent);
    std::string pattern = (base / "cx-binarize-XXXXXX").string();
    if (!mkdtemp(pattern.data())) {
        throw InputError(base.string(), 0, "cannot create a temporary folder for counts");
    }
    m_path = pattern;
}

SpillFolder::~SpillFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
}

void countFile(const std::string& path, BinarizeFormat format, const BinarizeOptions& options,
               const Genome& genome, const std::filesystem::path& spillStem, FileCounts& counts,
               const CancelToken& cancel) {
    counts.summary.path = path;
    counts.spillStem = spillStem;
    CountSink sink(genome, spillStem, counts);
    BinarizeOptions effective = options;
    effective.format = format;
    if (format == BinarizeFormat::Bam) {
        countAlignments(path, effective, genome, sink, counts, cancel);
    } else {
        countBedLines(path, effective, genome, sink, counts, cancel);
    }
    sink.finish();
}

void addSpilledCounts(const FileCounts& counts, int chrom, std::vector<std::int32_t>& bins) {
    if (!counts.present[static_cast<size_t>(chrom)]) {
        return;
    }
    const auto path = counts.spillStem.string() + "." + std::to_string(chrom);
    std::ifstream in(path, std::ios::binary);
    const std::string packed((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
    std::vector<std::uint32_t> unpacked(bins.size());
    uLongf bytes = static_cast<uLongf>(unpacked.size() * sizeof(std::uint32_t));
    if (uncompress(reinterpret_cast<Bytef*>(unpacked.data()), &bytes,
                   reinterpret_cast<const Bytef*>(packed.data()),
                   static_cast<uLong>(packed.size())) != Z_OK ||
        bytes != unpacked.size() * sizeof(std::uint32_t)) {
        throw InputError(path, 0, "temporary counts are unreadable (was the folder cleaned?)");
    }
    for (size_t i = 0; i < bins.size(); ++i) {
        bins[i] += static_cast<std::int32_t>(unpacked[i]);
    }
}

} // namespace cx::binarize_detail
