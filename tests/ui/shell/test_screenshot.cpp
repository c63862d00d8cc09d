// Runs the built contrast-explorer headless (--demo --screenshot) and checks the image.
#include "gui_test_helpers.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QProcessEnvironment>
#include <QSet>
#include <QTemporaryDir>

using cx::ui::test::countDark;
using cx::ui::test::exitedCleanly;
using cx::ui::test::GuiRun;
using cx::ui::test::privateGuiEnvironment;
using cx::ui::test::runGui;
using cx::ui::test::samplePixels;

TEST(Screenshot, DemoRendersANonBlankWindow) {
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    const QString path = directory.filePath(QStringLiteral("shot.png"));
    const GuiRun run = runGui({QStringLiteral("--demo"), QStringLiteral("--screenshot"), path,
                               QStringLiteral("--size"), QStringLiteral("1280x800")},
                              privateGuiEnvironment(directory));
    ASSERT_TRUE(exitedCleanly(run));
    EXPECT_TRUE(run.output.trimmed().endsWith(QStringLiteral("shot.png")))
        << run.output.toStdString();
    EXPECT_FALSE(run.errors.contains(QStringLiteral("timeout"))) << run.errors.toStdString();

    QImage image(path);
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.size(), QSize(1280, 800));
    image = image.convertToFormat(QImage::Format_RGB32);
    const QList<QRgb> pixels = samplePixels(image, 2);
    const QSet<QRgb> colours(pixels.begin(), pixels.end());
    const qsizetype darkPixels = countDark(pixels);
    // Text, a chart and table bars: many distinct colours and some dark (text) pixels, but not
    // a dark screen.
    EXPECT_GT(colours.size(), 200);
    EXPECT_GT(darkPixels, pixels.size() / 500);
    EXPECT_LT(darkPixels, pixels.size() / 4);
}

TEST(Screenshot, WithoutADisplayTheDemoRendersToAPngAndSaysWhere) {
    // README's first set-up command ends in `contrast-explorer --demo`; on a machine without a
    // display it must render the demo window to a PNG in the working folder and print its path.
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    QProcessEnvironment environment = privateGuiEnvironment(directory);
    environment.remove(QStringLiteral("DISPLAY"));
    environment.remove(QStringLiteral("WAYLAND_DISPLAY"));
    environment.remove(QStringLiteral("QT_QPA_PLATFORM"));
    const GuiRun run = runGui({QStringLiteral("--demo")}, environment, directory.path());
    ASSERT_TRUE(exitedCleanly(run));
    const QString expected = directory.filePath(QStringLiteral("contrast-explorer-demo.png"));
    EXPECT_TRUE(run.errors.contains(QStringLiteral("no display found")))
        << run.errors.toStdString();
    EXPECT_EQ(run.output.trimmed(), expected);
    const QImage image(expected);
    ASSERT_FALSE(image.isNull());
    EXPECT_GT(image.width(), 400);
}

TEST(Screenshot, ASessionFileOpensFromTheCommandLine) {
    // A chromatin-only session next to the bundled slice: its active tab is shown and waited for.
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    const QString session = directory.filePath(QStringLiteral("slice.cxproj"));
    QFile file(session);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(
        QStringLiteral("{\"format\": \"contrast-explorer-session\", \"version\": 1, \"active\": "
                       "\"chromatin\", \"workspaces\": {\"chromatin\": {\"tracks\": [{\"path\": "
                       "\"%1/GM12878_chr11_slice.txt.gz\"}], \"annotations\": [{\"path\": "
                       "\"%1/RefSeqGene.chr11_slice.bed\", \"foreground\": true}], \"model\": "
                       "{\"k\": 5, \"gamma\": 0.5}}}}")
            .arg(QStringLiteral(CX_TEST_DATA_DIR "/hmm"))
            .toUtf8());
    file.close();
    const QString path = directory.filePath(QStringLiteral("session.png"));
    const GuiRun run =
        runGui({session, QStringLiteral("--screenshot"), path}, privateGuiEnvironment(directory));
    ASSERT_TRUE(exitedCleanly(run));
    EXPECT_FALSE(run.errors.contains(QStringLiteral("timeout"))) << run.errors.toStdString();
    EXPECT_FALSE(QImage(path).isNull());
    // A session that cannot be opened: named on stderr, non-zero exit.
    const QString broken = directory.filePath(QStringLiteral("broken.cxproj"));
    QFile brokenFile(broken);
    ASSERT_TRUE(brokenFile.open(QIODevice::WriteOnly));
    brokenFile.write("{\"format\": \"contrast-explorer-session\", \"version\": 99}");
    brokenFile.close();
    const GuiRun failed =
        runGui({broken, QStringLiteral("--screenshot"), path}, privateGuiEnvironment(directory));
    EXPECT_NE(failed.exitCode, 0);
    EXPECT_TRUE(failed.errors.contains(broken + QStringLiteral(": written by a newer")))
        << failed.errors.toStdString();
}
