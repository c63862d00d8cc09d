// The bad-input catalogue (tests/data/bad) through the GUI: every malformed
// file opened where a user would open it gives one error dialog whose text names the file, is
// readable (no raw bytes of a binary file, no replacement characters, not a dump) and leaves what
// was loaded before in place: the corpus, the tracks, the annotations, the open session.
#include "gui_test_helpers.h"

#include "ui/chromatin/annotation_list_model.h"
#include "ui/chromatin/chromatin_controller.h"
#include "ui/chromatin/chromatin_workspace.h"
#include "ui/shell/main_window.h"
#include "ui/shell/project_session.h"
#include "ui/topics/topics_controller.h"
#include "ui/topics/topics_workspace.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <cctype>
#include <string>
#include <vector>

using cx::ui::MainWindow;
using cx::ui::test::ErrorRecorder;
using cx::ui::test::waitUntil;

namespace {

const QString kBad = QStringLiteral(CX_TEST_DATA_DIR "/bad/");
const QString kHmm = QStringLiteral(CX_TEST_DATA_DIR "/hmm/");

enum class Where { Track, Annotation, Corpus, Uci, Session };

/// Where a catalogue file is opened, from its name (README in tests/data/bad).
Where whereOf(const QString& name) {
    if (name.startsWith(QLatin1String("chromhmm_"))) {
        return Where::Track;
    }
    if (name.startsWith(QLatin1String("bed_"))) {
        return Where::Annotation;
    }
    if (name.startsWith(QLatin1String("uci/"))) {
        return Where::Uci;
    }
    if (name.startsWith(QLatin1String("session_"))) {
        return Where::Session;
    }
    return Where::Corpus;
}

/// Every case of the catalogue: files and the two text folders, not the generator, the README
/// or the good UCI companions.
std::vector<std::string> catalogue() {
    QStringList names;
    QDirIterator it(kBad, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString name = QDir(kBad).relativeFilePath(path);
        const QFileInfo info(path);
        if (name.endsWith(QLatin1String(".py")) || name.endsWith(QLatin1String(".md")) ||
            name.contains(QLatin1String(".good.")) ||
            (info.isDir() && !name.startsWith(QLatin1String("textfolder_"))) ||
            name.startsWith(QLatin1String("textfolder_")) !=
                (info.isDir() && !name.contains('/'))) {
            continue;
        }
        names << name;
    }
    names.sort();
    std::vector<std::string> out;
    for (const QString& name : names) {
        out.push_back(name.toStdString());
    }
    return out;
}

/// Text a person can read: printable characters, line breaks and tabs only.
bool isReadable(const QString& text) {
    for (const QChar c : text) {
        if (c == QLatin1Char('\n') || c == QLatin1Char('\t')) {
            continue;
        }
        if (c == QChar::ReplacementCharacter || c.category() == QChar::Other_Control) {
            return false;
        }
    }
    return true;
}

class BadInputDialog : public ::testing::TestWithParam<std::string> {};

} // namespace

TEST_P(BadInputDialog, NamesTheFileReadablyAndKeepsWhatWasLoaded) {
    const QString name = QString::fromStdString(GetParam());
    const QString path = kBad + name;
    ErrorRecorder errors;
    MainWindow window;
    window.setSettingsPersistent(false);
    auto* topics = window.workspace<cx::ui::TopicsWorkspace>();
    auto* chromatin = window.workspace<cx::ui::ChromatinWorkspace>();
    // Something loaded before, in each place a file can go.
    topics->openCorpus(cx::ui::test::syntheticCorpus(300, 200));
    const auto corpus = topics->controller()->corpus().corpus;
    chromatin->openTracks({kHmm + QStringLiteral("GM12878_chr11_slice.txt.gz")});
    ASSERT_TRUE(waitUntil([&] { return chromatin->controller()->data().isValid(); }, 30000));
    chromatin->addAnnotations({kHmm + QStringLiteral("RefSeqGene.chr11_slice.bed")});
    ASSERT_TRUE(waitUntil([&] { return chromatin->isSettled(); }, 30000));
    const auto tracks = chromatin->controller()->data().data;
    const int annotations = chromatin->annotationModel()->entries().size();
    const QString sessionBefore = window.project()->filePath();
    ASSERT_TRUE(errors.messages.isEmpty()) << errors.messages.join('\n').toStdString();

    QTemporaryDir scratch;
    QString named = QFileInfo(path).fileName(); // what the message must name
    switch (whereOf(name)) {
    case Where::Track:
        chromatin->openTracks({path});
        break;
    case Where::Annotation:
        chromatin->addAnnotations({path});
        break;
    case Where::Corpus:
        topics->openPath(path);
        break;
    case Where::Uci: {
        // A UCI pair in a folder of its own: the bad half with a good other half.
        const bool vocabIsBad = name.contains(QLatin1String("vocab."));
        ASSERT_TRUE(QFile::copy(vocabIsBad ? kBad + QStringLiteral("uci/docword.good.txt") : path,
                                scratch.filePath(QStringLiteral("docword.x.txt"))));
        ASSERT_TRUE(QFile::copy(vocabIsBad ? path : kBad + QStringLiteral("uci/vocab.good.txt"),
                                scratch.filePath(QStringLiteral("vocab.x.txt"))));
        named = vocabIsBad ? QStringLiteral("vocab.x.txt") : QStringLiteral("docword.x.txt");
        topics->openPath(scratch.filePath(QStringLiteral("docword.x.txt")));
        break;
    }
    case Where::Session:
        window.openPath(path);
        break;
    }
    ASSERT_TRUE(waitUntil([&] { return !errors.messages.isEmpty(); }, 30000))
        << "no dialog for " << name.toStdString();
    ASSERT_TRUE(waitUntil([&] { return chromatin->isSettled() && topics->isSettled(); }, 30000));
    const QString message = errors.titles.first() + QLatin1Char('\n') + errors.messages.first();
    SCOPED_TRACE(message.toStdString());
    EXPECT_EQ(errors.messages.size(), 1) << "one dialog, not a cascade";
    EXPECT_TRUE(message.contains(named)) << "the dialog names the file";
    EXPECT_TRUE(isReadable(message)) << "raw bytes in the dialog";
    EXPECT_LT(message.size(), 2000) << "a message, not a dump";
    EXPECT_EQ(topics->controller()->corpus().corpus, corpus) << "the corpus was replaced";
    EXPECT_EQ(chromatin->controller()->data().data, tracks) << "the tracks were replaced";
    EXPECT_EQ(chromatin->annotationModel()->entries().size(), annotations);
    EXPECT_EQ(window.project()->filePath(), sessionBefore) << "the session changed";
}

INSTANTIATE_TEST_SUITE_P(Catalogue, BadInputDialog, ::testing::ValuesIn(catalogue()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string id = info.param;
                             for (char& c : id) {
                                 if (!std::isalnum(static_cast<unsigned char>(c))) {
                                     c = '_';
                                 }
                             }
                             return id;
                         });

TEST(BadInputDialog, TheCatalogueHoldsAtLeastFortyCases) {
    EXPECT_GE(catalogue().size(), 40u);
}
