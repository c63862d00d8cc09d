// Runs the built contrast-explorer headless (--demo --screenshot) and checks the image.
#include "gui_test_helpers.h"

#include <gtest/gtest.h>

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
