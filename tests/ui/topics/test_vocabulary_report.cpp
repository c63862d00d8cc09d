// The vocabulary cap. The open dialog's 0 says what it does (not "no
// limit"), gives the options the CLI's --max-vocab 0 gives, and the data panel's load report
// says how many words the cap dropped and why.
#include "ui/dialogs/open_corpus_dialog.h"
#include "ui/topics/topics_data_panel.h"

#include "core/io/corpus_loader.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QLabel>
#include <QSpinBox>
#include <QTemporaryDir>

namespace {

/// 1,200 documents over 1,500 rare words (each in 2 documents) and one common word: the size
/// rule keeps 1,200 of the 1,501 words.
QString writeCorpus(const QTemporaryDir& dir) {
    QString tsv = QStringLiteral("text\tgroup\n");
    for (int d = 0; d < 1200; ++d) {
        tsv += QStringLiteral("common w%1x w%2x w%3x\tg\n")
                   .arg(d % 1500)
                   .arg((d + 600) % 1500)
                   .arg((d + 1100) % 1500);
    }
    const QString path = dir.filePath(QStringLiteral("many.tsv"));
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(tsv.toUtf8());
    return path;
}

} // namespace

TEST(VocabularyReport, DialogZeroIsTheCliDefaultAndThePanelSaysWhatWasDropped) {
    cx::ui::OpenCorpusDialog dialog;
    cx::CorpusLoadOptions options;
    options.maxVocabulary = 0;
    dialog.setOptions(options);
    QSpinBox* maxVocabulary = nullptr;
    for (QSpinBox* spin : dialog.findChildren<QSpinBox*>()) {
        maxVocabulary = spin->specialValueText().isEmpty() ? maxVocabulary : spin;
    }
    ASSERT_NE(maxVocabulary, nullptr);
    EXPECT_FALSE(maxVocabulary->specialValueText().contains(QStringLiteral("no limit")));
    EXPECT_TRUE(maxVocabulary->specialValueText().contains(QStringLiteral("automatic")));
    EXPECT_EQ(dialog.options().maxVocabulary, 0);
    EXPECT_TRUE(dialog.options().capVocabularyAtDocuments); // as contrast-cli --max-vocab 0

    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    cx::CorpusLoadOptions load = dialog.options();
    load.minDocumentFrequency = 1;
    cx::ui::CorpusHandle handle;
    handle.corpus =
        std::make_shared<const cx::Corpus>(cx::loadCorpus(writeCorpus(dir).toStdString(), load));
    handle.source = dir.filePath(QStringLiteral("many.tsv"));
    cx::ui::TopicsDataPanel panel;
    panel.setCorpus(handle);
    bool said = false;
    bool why = false;
    for (QLabel* label : panel.findChildren<QLabel*>()) {
        said = said ||
               label->text().contains(
                   QStringLiteral("301 words dropped by the vocabulary cap of 1,200")) ||
               label->text().contains(
                   QStringLiteral("301 words dropped by the vocabulary cap of 1200"));
        why = why || label->toolTip().contains(QStringLiteral("automatic with max. vocabulary 0"));
    }
    EXPECT_TRUE(said);
    EXPECT_TRUE(why);

    // A large enough setting keeps every word and the report says nothing was dropped.
    load.maxVocabulary = 2000;
    handle.corpus =
        std::make_shared<const cx::Corpus>(cx::loadCorpus(handle.source.toStdString(), load));
    EXPECT_EQ(handle.corpus->vocabulary.size(), 1501u);
    panel.setCorpus(handle);
    for (QLabel* label : panel.findChildren<QLabel*>()) {
        EXPECT_FALSE(label->text().contains(QStringLiteral("dropped by the vocabulary cap")));
    }
}
