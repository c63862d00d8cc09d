// Models (top words, label values), delimited/figure export helpers.
#include "ui/topics/label_values_model.h"
#include "ui/topics/topic_words_model.h"
#include "ui/topics/topic_worker.h"
#include "ui/widgets/export_helpers.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTemporaryDir>

using cx::ui::LabelValuesModel;
using cx::ui::TopicSolution;
using cx::ui::TopicWordsModel;

namespace {

/// Three components over a 5-word vocabulary; the first two foreground-specific.
TopicSolution handMadeSolution() {
    auto corpus = std::make_shared<cx::Corpus>();
    corpus->vocabulary = {"alpha", "beta", "gamma", "delta", "eps,ilon"};
    auto result = std::make_shared<cx::TopicModelResult>();
    result->gamma = 1.5;
    result->topics.resize(5, 3);
    result->topics.col(0) << 0.5, 0.2, 0.1, 0.1, 0.1;
    result->topics.col(1) << 0.05, 0.05, 0.1, 0.3, 0.5;
    result->topics.col(2) << 0.1, 0.6, 0.1, 0.1, 0.1;
    result->lambdas = Eigen::Vector3d(2.0, 4.0, -1.0);
    result->weights = Eigen::Vector3d(0.25, 0.0625, 0.0);
    result->signedWeights = Eigen::Vector3d(0.25, 0.0625, -1.0);
    result->clippedMass = Eigen::Vector3d::Zero();
    result->foregroundSpecific = {true, true, false};
    result->status = cx::Status::Successful;
    TopicSolution solution;
    solution.generation = 1;
    solution.gamma = 1.5;
    solution.topWords = cx::ui::TopicWorker::topWords(*result, 4);
    solution.result = result;
    solution.corpus = corpus;
    return solution;
}

} // namespace

TEST(TopicWordsModel, ShowsForegroundSpecificColumnsByDefault) {
    TopicWordsModel model;
    model.setTopWordCount(3);
    model.setSolution(handMadeSolution());
    ASSERT_EQ(model.columnCount(), 2);
    ASSERT_EQ(model.rowCount(), 3);
    EXPECT_EQ(model.data(model.index(0, 0)).toString(), QStringLiteral("alpha"));
    EXPECT_EQ(model.data(model.index(0, 1)).toString(), QStringLiteral("eps,ilon"));
    EXPECT_DOUBLE_EQ(model.data(model.index(1, 0), TopicWordsModel::ValueRole).toDouble(), 0.2);
    EXPECT_DOUBLE_EQ(model.data(model.index(1, 0), TopicWordsModel::RelativeValueRole).toDouble(),
                     0.4);
    const QString header = model.headerData(0, Qt::Horizontal).toString();
    EXPECT_TRUE(header.startsWith(QStringLiteral("Topic 1")));
    EXPECT_TRUE(header.contains(QStringLiteral("0.25")));
}

TEST(TopicWordsModel, AllComponentsShowSignedWeights) {
    TopicWordsModel model;
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.setSolution(handMadeSolution());
    model.setShowAll(true);
    EXPECT_EQ(reset.count(), 2);
    ASSERT_EQ(model.columnCount(), 3);
    EXPECT_FALSE(model.data(model.index(0, 2), TopicWordsModel::ForegroundSpecificRole).toBool());
    EXPECT_LT(model.headerData(2, Qt::Horizontal, TopicWordsModel::SignedWeightRole).toDouble(), 0);
    EXPECT_TRUE(model.headerData(2, Qt::Horizontal).toString().contains(QChar(0x2212)));
    EXPECT_EQ(model.data(model.index(0, 2)).toString(), QStringLiteral("beta"));
}

TEST(TopicWordsModel, TopicKeysAndLongTable) {
    TopicWordsModel model;
    model.setTopWordCount(2);
    model.setSolution(handMadeSolution());
    const QStringList keys = model.topicKeysText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(keys.size(), 2);
    EXPECT_EQ(keys[0], QStringLiteral("0\t0.25\talpha beta"));
    EXPECT_EQ(keys[1], QStringLiteral("1\t0.0625\teps,ilon delta"));
    const QString csv = model.longTable(QLatin1Char(','));
    EXPECT_TRUE(csv.startsWith(QStringLiteral("component,foreground_specific,weight,rank,word,"
                                              "probability,admissible,npmi,name\n")));
    EXPECT_TRUE(csv.contains(QStringLiteral("c2,1,0.0625,1,\"eps,ilon\",0.5,1,nan,Topic 2\n")));
    // A user's name is used in the export (quoted in CSV when it holds a comma).
    EXPECT_TRUE(model.setTopicName(1, QStringLiteral("Oil, gas")));
    EXPECT_TRUE(
        model.longTable(QLatin1Char(','))
            .contains(QStringLiteral("c2,1,0.0625,1,\"eps,ilon\",0.5,1,nan,\"Oil, gas\"\n")));
    EXPECT_TRUE(model.longTable(QLatin1Char('\t')).contains(QStringLiteral("\tOil, gas\n")));
    EXPECT_EQ(model.longTable(QLatin1Char('\t')).count(QLatin1Char('\n')), 5);
}

TEST(TopicWordsModel, EmptySolutionHasNoColumns) {
    TopicWordsModel model;
    model.setSolution({});
    EXPECT_EQ(model.columnCount(), 0);
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_TRUE(model.topicKeysText().isEmpty());
}

TEST(LabelValuesModel, ChecksAndCounts) {
    LabelValuesModel model;
    model.setValues({{"usa", 300}, {"uk", 20}, {"japan", 12}});
    ASSERT_EQ(model.rowCount(), 3);
    EXPECT_EQ(model.data(model.index(0, LabelValuesModel::CountColumn), LabelValuesModel::CountRole)
                  .toLongLong(),
              300);
    QSignalSpy changed(&model, &LabelValuesModel::checkedChanged);
    EXPECT_TRUE(model.setData(model.index(2, 0), Qt::Checked, Qt::CheckStateRole));
    EXPECT_TRUE(model.setData(model.index(0, 0), Qt::Checked, Qt::CheckStateRole));
    EXPECT_EQ(changed.count(), 2);
    EXPECT_EQ(model.checkedValues(), (QStringList{QStringLiteral("usa"), QStringLiteral("japan")}));
    model.setCheckedValues({QStringLiteral("UK"), QStringLiteral("nowhere")});
    EXPECT_EQ(model.checkedValues(), QStringList{QStringLiteral("uk")});
    EXPECT_EQ(model.rowOf(QStringLiteral("Japan")), 2);
}

TEST(ExportHelpers, DelimitedTextQuotesCsvAndFlattensTsv) {
    QStandardItemModel model(2, 2);
    model.setHorizontalHeaderLabels({QStringLiteral("a\nb"), QStringLiteral("c")});
    model.setItem(0, 0, new QStandardItem(QStringLiteral("x,y")));
    model.setItem(0, 1, new QStandardItem(QStringLiteral("say \"hi\"")));
    model.setItem(1, 0, new QStandardItem(QStringLiteral("tab\there")));
    model.setItem(1, 1, new QStandardItem(QStringLiteral("plain")));
    EXPECT_EQ(cx::ui::delimitedText(model, QLatin1Char(',')),
              QStringLiteral("a b,c\n\"x,y\",\"say \"\"hi\"\"\"\ntab\there,plain\n"));
    EXPECT_EQ(cx::ui::delimitedText(model, QLatin1Char('\t')),
              QStringLiteral("a b\tc\nx,y\tsay \"hi\"\ntab here\tplain\n"));
}

TEST(ExportHelpers, FiguresInEveryFormat) {
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    const auto paint = [](QPainter& painter, const QRectF& target) {
        painter.setPen(QPen(Qt::blue, 2));
        painter.drawRect(target.adjusted(10, 10, -10, -10));
        painter.drawText(target, Qt::AlignCenter, QStringLiteral("AUC"));
    };
    cx::ui::ImageExportSettings settings;
    settings.pixels = QSize(600, 400);
    settings.dpi = 192;
    EXPECT_DOUBLE_EQ(settings.logicalSize().width(), 300);
    QString error;
    for (auto format :
         {cx::ui::ImageExportSettings::Format::Png, cx::ui::ImageExportSettings::Format::Svg,
          cx::ui::ImageExportSettings::Format::Pdf}) {
        settings.format = format;
        const QString path = directory.filePath(QStringLiteral("figure.") +
                                                cx::ui::ImageExportSettings::suffix(format));
        ASSERT_TRUE(cx::ui::exportFigure(path, settings, paint, &error)) << error.toStdString();
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::ReadOnly));
        const QByteArray head = file.read(8);
        if (format == cx::ui::ImageExportSettings::Format::Pdf) {
            EXPECT_TRUE(head.startsWith("%PDF"));
        } else if (format == cx::ui::ImageExportSettings::Format::Svg) {
            EXPECT_TRUE(file.readAll().contains("<svg"));
        }
    }
    const QImage image(directory.filePath(QStringLiteral("figure.png")));
    EXPECT_EQ(image.size(), QSize(600, 400));
    EXPECT_NEAR(image.dotsPerMeterX() * 0.0254, 192, 1);

    settings.format = cx::ui::ImageExportSettings::Format::Png;
    EXPECT_FALSE(
        cx::ui::exportFigure(QStringLiteral("/nonexistent/dir/f.png"), settings, paint, &error));
    EXPECT_TRUE(error.startsWith(QStringLiteral("/nonexistent/dir/f.png")));
}
