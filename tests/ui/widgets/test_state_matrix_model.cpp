// StateMatrixModel (ui/widgets): the matrix table model behind heatmaps and exported tables.
#include "ui/widgets/state_matrix_model.h"

#include <gtest/gtest.h>

#include <QSignalSpy>

using cx::ui::StateMatrixModel;

TEST(StateMatrixModel, ExportsNamesWeightsAndFullPrecision) {
    StateMatrixModel model;
    StateMatrixModel::Content content;
    content.values.resize(2, 2);
    content.values << 0.123456789, 1.0, 0.0, 0.5;
    content.rowLabels = {QStringLiteral("Active promoter"), QStringLiteral("Quiescent, low")};
    content.columnLabels = {QStringLiteral("H3K4me3"), QStringLiteral("H3K27ac")};
    content.rowWeights = {0.25, -0.1};
    content.rowSlots = {3, 1};
    model.setContent(content);
    EXPECT_EQ(model.data(model.index(0, 0)).toString(), QStringLiteral("0.12"));
    EXPECT_DOUBLE_EQ(model.value(0, 0), 0.123456789);
    const QStringList tsv = model.delimited(QLatin1Char('\t')).split(QLatin1Char('\n'));
    EXPECT_EQ(tsv[0], QStringLiteral("state\tweight\tH3K4me3\tH3K27ac"));
    EXPECT_EQ(tsv[1], QStringLiteral("Active promoter\t0.25\t0.12345679\t1"));
    const QStringList csv = model.delimited(QLatin1Char(',')).split(QLatin1Char('\n'));
    EXPECT_TRUE(csv[2].startsWith(QStringLiteral("\"Quiescent, low\",-0.1,")))
        << csv[2].toStdString();
    QSignalSpy renamed(&model, &StateMatrixModel::rowRenamed);
    EXPECT_TRUE(
        model.setHeaderData(1, Qt::Vertical, QStringLiteral(" Heterochromatin "), Qt::EditRole));
    ASSERT_EQ(renamed.count(), 1);
    EXPECT_EQ(renamed.last().at(1).toInt(), 1); // the display slot
    EXPECT_EQ(renamed.last().at(2).toString(), QStringLiteral("Heterochromatin"));
}
