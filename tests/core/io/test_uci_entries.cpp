// The UCI docword body reader's block-parallel path: the same CSR, warnings and error lines as
// a one-part, one-block read, for any block size, part size and thread count.
#include "corpus_checks.h"

#include "core/common/cancel.h"
#include "core/common/error.h"
#include "core/common/parallel.h"
#include "core/io/corpus_builder.h"
#include "core/io/corpus_loader.h"
#include "core/io/text_input.h"
#include "core/io/tokenizer.h"
#include "core/io/uci_entries.h"
#include "test_helpers.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace cx {
namespace {

using test::expectInputError;
using test::expectSameCorpus;
using test::ScratchFolder;

constexpr std::int64_t kDocs = 150;
constexpr std::int64_t kWords = 60;

/// Entry lines with the variations the fast parser hands to the line-by-line path (blank lines,
/// CRLF, tabs, leading blanks, long numbers) and documents out of order and repeated.
std::string entryLines(unsigned seed, std::int64_t& entries) {
    std::mt19937 random(seed);
    std::string text;
    entries = 0;
    for (std::int64_t doc = 1; doc <= kDocs; ++doc) {
        const std::int64_t shownDoc = random() % 50 == 0 ? 1 + random() % kDocs : doc;
        for (int k = 0; k < 1 + static_cast<int>(random() % 12); ++k) {
            const std::string d = std::to_string(shownDoc);
            const std::string w = std::to_string(1 + random() % kWords);
            const std::string c = std::to_string(1 + random() % 9);
            switch (random() % 40) {
            case 0:
                text += "\n";
                break;
            case 1:
                text += " \r\n";
                break;
            case 2:
                text += d + "\t" + w + "\t" + c + "\r\n";
                ++entries;
                continue;
            case 3:
                text += "  " + d + " 000000000" + w + " " + c + " \n";
                ++entries;
                continue;
            default:
                break;
            }
            text += d + " " + w + " " + c + "\n";
            ++entries;
        }
    }
    return text;
}

struct BodyResult {
    CountMatrix matrix;
    std::int64_t firstLargeCountLine = 0;
    std::string error;
};

/// Reads a docword file's body through EntryReader after its header, as readUci does.
BodyResult readBody(const std::string& path, std::int64_t entries, size_t blockBytes, int parts,
                    size_t minPartBytes) {
    BodyResult result;
    try {
        LineReader reader(path, LineReader::kMaxLineBytes, blockBytes);
        std::string_view line;
        for (int header = 0; header < 3; ++header) {
            EXPECT_TRUE(reader.next(line));
        }
        result.matrix.numRows = kDocs;
        result.matrix.numCols = kWords;
        result.matrix.rowPtr.assign(kDocs + 1, 0);
        std::int64_t invalid = 0;
        TextLineCheck check(invalid);
        const CancelToken cancel;
        const ProgressFn progress;
        ReadProgress tracker(cancel, progress, reader.fileSize());
        uci::EntryReader body(result.matrix, {kDocs, kWords, entries, nullptr}, check, path);
        body.read(reader, tracker, parts, minPartBytes);
        body.finish();
        result.firstLargeCountLine = body.firstLargeCountLine();
    } catch (const InputError& error) {
        result.error = error.what();
    }
    return result;
}

std::string header(std::int64_t entries) {
    return std::to_string(kDocs) + "\n" + std::to_string(kWords) + "\n" + std::to_string(entries) +
           "\n";
}

/// Every combination of small blocks (lines span blocks), small parts and 1 or 2 parts.
template <typename Check> void forEveryWayOfReading(const Check& check) {
    for (const size_t block : {size_t{24}, size_t{700}, LineReader::kBlockBytes}) {
        for (const size_t minPart : {size_t{1}, size_t{300}, uci::EntryReader::kMinPartBytes}) {
            for (const int parts : {1, 2, 3}) {
                check(block, parts, minPart);
            }
        }
    }
}

TEST(UciEntries, SameCsrForAnyBlockPartAndThreadCount) {
    ScratchFolder scratch;
    for (unsigned seed = 1; seed <= 2; ++seed) {
        std::int64_t entries = 0;
        const std::string body = entryLines(seed, entries);
        const std::string plain = scratch.write("docword.p.txt", header(entries) + body);
        const std::string zipped = scratch.writeGzip("docword.p.txt.gz", header(entries) + body);
        const BodyResult reference =
            readBody(plain, entries, LineReader::kBlockBytes, 1, uci::EntryReader::kMinPartBytes);
        ASSERT_EQ(reference.error, "");
        ASSERT_EQ(static_cast<std::int64_t>(reference.matrix.colIdx.size()), entries);
        forEveryWayOfReading([&](size_t block, int parts, size_t minPart) {
            for (const std::string& path : {plain, zipped}) {
                const BodyResult got = readBody(path, entries, block, parts, minPart);
                EXPECT_EQ(got.error, "");
                EXPECT_EQ(got.matrix.rowPtr, reference.matrix.rowPtr) << block << " " << parts;
                EXPECT_EQ(got.matrix.colIdx, reference.matrix.colIdx) << block << " " << parts;
                EXPECT_EQ(got.matrix.counts, reference.matrix.counts) << block << " " << parts;
            }
        });
    }
}

TEST(UciEntries, ErrorsNameTheirLineInEveryPart) {
    ScratchFolder scratch;
    std::int64_t entries = 0;
    const std::string body = entryLines(7, entries);
    const std::vector<std::string> lines = [&] {
        std::vector<std::string> out;
        size_t start = 0;
        for (size_t end = body.find('\n'); end != std::string::npos;
             start = end + 1, end = body.find('\n', start)) {
            out.push_back(body.substr(start, end - start + 1));
        }
        return out;
    }();
    const auto fileWith = [&](size_t at, const std::string& inserted) {
        std::string text = header(entries);
        for (size_t i = 0; i < lines.size(); ++i) {
            text += i == at ? inserted : "";
            text += lines[i];
        }
        return text;
    };
    size_t lastEntry = 0;
    for (size_t i = 0; i < lines.size(); ++i) {
        lastEntry = trimAscii(lines[i]).empty() ? lastEntry : i;
    }
    // Bad lines early, in the middle and at the end: the file line is 3 header lines + index + 1.
    for (const size_t at : {size_t{0}, lines.size() / 3, lines.size() / 2 + 1, lines.size() - 1}) {
        const std::string line = std::to_string(at + 4);
        const std::string bad = scratch.write("docword.b.txt", fileWith(at, "5 x7 1\n"));
        const std::string range = scratch.write("docword.r.txt", fileWith(at, "5 61 2\r\n"));
        const std::string large = scratch.write("docword.l.txt", fileWith(at, "5 6 16777217\n"));
        forEveryWayOfReading([&](size_t block, int parts, size_t minPart) {
            const std::string where =
                std::to_string(block) + "/" + std::to_string(parts) + "/" + std::to_string(minPart);
            const BodyResult badResult = readBody(bad, entries + 1, block, parts, minPart);
            EXPECT_NE(badResult.error.find("docword.b.txt:" + line + ": wordID 'x7'"),
                      std::string::npos)
                << badResult.error << " " << where;
            const BodyResult rangeResult = readBody(range, entries + 1, block, parts, minPart);
            EXPECT_NE(rangeResult.error.find("docword.r.txt:" + line + ": wordID 61 is out of"),
                      std::string::npos)
                << rangeResult.error << " " << where;
            // One entry more than NNZ: the error names the last entry line; one entry fewer
            // names the end of the file.
            const size_t overLine = at > lastEntry ? at + 4 : lastEntry + 5;
            const BodyResult over = readBody(large, entries, block, parts, minPart);
            EXPECT_NE(over.error.find(":" + std::to_string(overLine) + ": more entries than NNZ"),
                      std::string::npos)
                << over.error << " " << where;
            const BodyResult fine = readBody(large, entries + 1, block, parts, minPart);
            EXPECT_EQ(fine.error, "") << where;
            EXPECT_EQ(fine.firstLargeCountLine, static_cast<std::int64_t>(at + 4)) << where;
            const BodyResult under = readBody(large, entries + 2, block, parts, minPart);
            EXPECT_NE(under.error.find(":" + std::to_string(lines.size() + 4) + ": NNZ = "),
                      std::string::npos)
                << under.error << " " << where;
        });
    }
}

TEST(UciEntries, LoadedCorpusIsTheSameForOneAndTwoThreads) {
    const test::ScopedThreadCount restore(0);
    ScratchFolder scratch;
    // About 3 MB, so that the default part size splits its one block in two.
    std::string body;
    std::int64_t entries = 0;
    std::mt19937 random(11);
    for (std::int64_t doc = 1; doc <= kDocs; ++doc) {
        for (int k = 0; k < 3000; ++k) {
            body += std::to_string(doc) + " " + std::to_string(1 + random() % kWords) + " " +
                    std::to_string(1 + random() % 5) + (k % 97 == 0 ? "\r\n" : "\n");
            ++entries;
        }
    }
    ASSERT_GT(body.size(), 2 * uci::EntryReader::kMinPartBytes);
    std::string vocabulary;
    for (std::int64_t w = 1; w <= kWords; ++w) {
        vocabulary += "word" + std::to_string(w) + "\n";
    }
    scratch.write("vocab.t.txt", vocabulary);
    const std::string path = scratch.write("docword.t.txt", header(entries) + body);
    CorpusLoadOptions options;
    options.minDocumentFrequency = 1;
    setThreadCount(1);
    const Corpus one = loadCorpus(path, options);
    setThreadCount(2);
    const Corpus two = loadCorpus(path, options);
    expectSameCorpus(one, two);
    EXPECT_EQ(one.report.warnings, two.report.warnings);

    scratch.write("docword.t.txt", header(entries) + body + "1 x 1\n");
    for (const int threads : {1, 2}) {
        setThreadCount(threads);
        expectInputError([&] { loadCorpus(path, options); },
                         {"docword.t.txt:" + std::to_string(entries + 4) + ":", "wordID 'x'"});
    }
}

} // namespace
} // namespace cx
