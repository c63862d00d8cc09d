// Runs the built contrast-explorer headless (--demo --screenshot) and checks the image.
#include <gtest/gtest.h>

#include <QImage>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSet>
#include <QTemporaryDir>

TEST(Screenshot, DemoRendersANonBlankWindow) {
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    const QString path = directory.filePath(QStringLiteral("shot.png"));
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    // A private settings location: the screenshot must not depend on the user's settings.
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"),
                       directory.filePath(QStringLiteral("config")));
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(CX_GUI_PATH),
                  {QStringLiteral("--demo"), QStringLiteral("--screenshot"), path,
                   QStringLiteral("--size"), QStringLiteral("1280x800")});
    ASSERT_TRUE(process.waitForStarted(10000));
    ASSERT_TRUE(process.waitForFinished(90000)) << "contrast-explorer did not exit";
    const QString output = QString::fromLocal8Bit(process.readAllStandardOutput());
    const QString errors = QString::fromLocal8Bit(process.readAllStandardError());
    ASSERT_EQ(process.exitStatus(), QProcess::NormalExit) << errors.toStdString();
    ASSERT_EQ(process.exitCode(), 0) << errors.toStdString();
    EXPECT_TRUE(output.trimmed().endsWith(QStringLiteral("shot.png"))) << output.toStdString();
    EXPECT_FALSE(errors.contains(QStringLiteral("timeout"))) << errors.toStdString();

    QImage image(path);
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.size(), QSize(1280, 800));
    image = image.convertToFormat(QImage::Format_RGB32);
    QSet<QRgb> colours;
    int darkPixels = 0;
    int samples = 0;
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = 0; x < image.width(); x += 2) {
            const QRgb pixel = image.pixel(x, y);
            colours.insert(pixel);
            darkPixels += qGray(pixel) < 110 ? 1 : 0;
            ++samples;
        }
    }
    // Text, a chart and table bars: many distinct colours and some dark (text) pixels, but not
    // a dark screen.
    EXPECT_GT(colours.size(), 200);
    EXPECT_GT(darkPixels, samples / 500);
    EXPECT_LT(darkPixels, samples / 4);
}

TEST(Screenshot, WithoutADisplayTheDemoRendersToAPngAndSaysWhere) {
    // README's first set-up command ends in `contrast-explorer --demo`; on a machine without a
    // display it must render the demo window to a PNG in the working folder and print its path.
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("DISPLAY"));
    environment.remove(QStringLiteral("WAYLAND_DISPLAY"));
    environment.remove(QStringLiteral("QT_QPA_PLATFORM"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"),
                       directory.filePath(QStringLiteral("config")));
    process.setProcessEnvironment(environment);
    process.setWorkingDirectory(directory.path());
    process.start(QStringLiteral(CX_GUI_PATH), {QStringLiteral("--demo")});
    ASSERT_TRUE(process.waitForStarted(10000));
    ASSERT_TRUE(process.waitForFinished(90000)) << "contrast-explorer did not exit";
    const QString errors = QString::fromLocal8Bit(process.readAllStandardError());
    ASSERT_EQ(process.exitStatus(), QProcess::NormalExit) << errors.toStdString();
    ASSERT_EQ(process.exitCode(), 0) << errors.toStdString();
    const QString expected = directory.filePath(QStringLiteral("contrast-explorer-demo.png"));
    EXPECT_TRUE(errors.contains(QStringLiteral("no display found"))) << errors.toStdString();
    EXPECT_EQ(QString::fromLocal8Bit(process.readAllStandardOutput()).trimmed(), expected);
    const QImage image(expected);
    ASSERT_FALSE(image.isNull());
    EXPECT_GT(image.width(), 400);
}
