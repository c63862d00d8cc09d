#include "ui/dialogs/image_export_dialog.h"

#include "ui/dialogs/figure_set_export.h"
#include "ui/dialogs/text_export.h"
#include "ui/framework/error_reporter.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include <iterator>

namespace cx::ui {

namespace {

const QString kFormatKey = QStringLiteral("export.image.format");
const QString kWidthKey = QStringLiteral("export.image.width");
const QString kHeightKey = QStringLiteral("export.image.height");
const QString kDpiKey = QStringLiteral("export.image.dpi");

/// Item data of the print-layout preset (the others: their index in kPresets).
constexpr int kPrintLayoutPreset = -1;

} // namespace

struct ImageExportDialog::Preset {
    const char* name;
    int width;
    int height;
    int dpi;
};

namespace {

// Sizes at print resolution: a journal single column is ~3.5 in, a double column ~7 in.
constexpr ImageExportDialog::Preset kPresets[] = {
    {"Custom", 0, 0, 0},
    {"Journal, single column (3.5 × 2.6 in, 300 DPI)", 1050, 780, 300},
    {"Journal, double column (7 × 4 in, 300 DPI)", 2100, 1200, 300},
    {"Slide (1920 × 1080, 144 DPI)", 1920, 1080, 144},
    {"Screen (1200 × 800, 96 DPI)", 1200, 800, 96},
};

} // namespace

ImageExportDialog::ImageExportDialog(QWidget* parent, const QSizeF& printSize)
    : QDialog(parent), m_printSize(printSize) {
    setWindowTitle(tr("Export Figure"));
    auto* form = new QFormLayout;
    m_format = new QComboBox(this);
    m_format->addItem(tr("PNG image"), static_cast<int>(ImageExportSettings::Format::Png));
    m_format->addItem(tr("SVG vector graphics"),
                      static_cast<int>(ImageExportSettings::Format::Svg));
    m_format->addItem(tr("PDF document"), static_cast<int>(ImageExportSettings::Format::Pdf));
    form->addRow(tr("Format:"), m_format);
    m_preset = new QComboBox(this);
    for (int i = 0; i < static_cast<int>(std::size(kPresets)); ++i) {
        m_preset->addItem(tr(kPresets[i].name), i);
        if (i == 0 && !m_printSize.isEmpty()) {
            m_preset->addItem(tr("Print layout of this figure (%1 × %2 mm)")
                                  .arg(qRound(m_printSize.width() / kLogicalPerMm))
                                  .arg(qRound(m_printSize.height() / kLogicalPerMm)),
                              kPrintLayoutPreset);
        }
    }
    form->addRow(tr("Preset:"), m_preset);
    auto* sizeRow = new QHBoxLayout;
    m_width = new QSpinBox(this);
    m_height = new QSpinBox(this);
    for (QSpinBox* spin : {m_width, m_height}) {
        spin->setRange(16, 20000);
        spin->setSuffix(tr(" px"));
        spin->setAccelerated(true);
    }
    sizeRow->addWidget(m_width);
    sizeRow->addWidget(new QLabel(QStringLiteral("×"), this));
    sizeRow->addWidget(m_height);
    sizeRow->addStretch(1);
    form->addRow(tr("Size:"), sizeRow);
    m_dpi = new QSpinBox(this);
    m_dpi->setRange(36, 2400);
    m_dpi->setSuffix(tr(" DPI"));
    form->addRow(tr("Resolution:"), m_dpi);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("hint"));
    form->addRow(QString(), m_summary);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export…"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);

    QSettings settings;
    ImageExportSettings initial;
    initial.format = static_cast<ImageExportSettings::Format>(
        settings.value(kFormatKey, static_cast<int>(initial.format)).toInt());
    initial.pixels = QSize(settings.value(kWidthKey, initial.pixels.width()).toInt(),
                           settings.value(kHeightKey, initial.pixels.height()).toInt());
    initial.dpi = settings.value(kDpiKey, initial.dpi).toInt();
    setSettings(initial);
    if (!m_printSize.isEmpty()) { // the figure's own layout first, at the remembered DPI
        m_preset->setCurrentIndex(m_preset->findData(kPrintLayoutPreset));
        applyPreset(m_preset->currentIndex());
    }

    connect(m_preset, &QComboBox::currentIndexChanged, this, &ImageExportDialog::applyPreset);
    for (QSpinBox* spin : {m_width, m_height}) {
        connect(spin, &QSpinBox::valueChanged, this, [this] {
            m_preset->setCurrentIndex(0);
            updateSummary();
        });
    }
    connect(m_dpi, &QSpinBox::valueChanged, this, [this] {
        if (usesPrintLayout()) { // same print size at the new resolution
            applyPreset(m_preset->currentIndex());
        } else {
            m_preset->setCurrentIndex(0);
            updateSummary();
        }
    });
    connect(m_format, &QComboBox::currentIndexChanged, this, &ImageExportDialog::updateSummary);
    updateSummary();
}

ImageExportSettings ImageExportDialog::settings() const {
    ImageExportSettings out;
    out.format = static_cast<ImageExportSettings::Format>(m_format->currentData().toInt());
    out.pixels = QSize(m_width->value(), m_height->value());
    out.dpi = m_dpi->value();
    return out;
}

void ImageExportDialog::setSettings(const ImageExportSettings& settings) {
    const QSignalBlocker blockWidth(m_width);
    const QSignalBlocker blockHeight(m_height);
    const QSignalBlocker blockDpi(m_dpi);
    m_format->setCurrentIndex(std::max(0, m_format->findData(static_cast<int>(settings.format))));
    m_width->setValue(settings.pixels.width());
    m_height->setValue(settings.pixels.height());
    m_dpi->setValue(settings.dpi);
    updateSummary();
}

bool ImageExportDialog::usesPrintLayout() const {
    return m_preset->currentData().toInt() == kPrintLayoutPreset;
}

void ImageExportDialog::applyPreset(int index) {
    const int preset = m_preset->itemData(index).toInt();
    if (preset == kPrintLayoutPreset) {
        const QSize pixels = figurePixels(m_printSize, m_dpi->value());
        const QSignalBlocker blockWidth(m_width);
        const QSignalBlocker blockHeight(m_height);
        m_width->setValue(pixels.width());
        m_height->setValue(pixels.height());
        updateSummary();
        return;
    }
    if (preset <= 0 || preset >= static_cast<int>(std::size(kPresets))) {
        return;
    }
    applyFixedPreset(kPresets[preset]);
}

void ImageExportDialog::applyFixedPreset(const Preset& preset) {
    const QSignalBlocker blockWidth(m_width);
    const QSignalBlocker blockHeight(m_height);
    const QSignalBlocker blockDpi(m_dpi);
    m_width->setValue(preset.width);
    m_height->setValue(preset.height);
    m_dpi->setValue(preset.dpi);
    updateSummary();
}

void ImageExportDialog::updateSummary() {
    const ImageExportSettings s = settings();
    m_summary->setText(tr("%1 × %2 in at print size")
                           .arg(s.pixels.width() / double(s.dpi), 0, 'f', 2)
                           .arg(s.pixels.height() / double(s.dpi), 0, 'f', 2));
}

QString ImageExportDialog::exportInteractively(QWidget* parent, const QString& what,
                                               const QString& baseName, const FigurePainter& paint,
                                               const QSizeF& printSize,
                                               const std::function<QString()>& data) {
    ImageExportDialog dialog(parent, printSize);
    dialog.setWindowTitle(tr("Export %1").arg(what));
    if (dialog.exec() != QDialog::Accepted) {
        return {};
    }
    ImageExportSettings settings = dialog.settings();
    QSettings store;
    const QString directory = lastExportDirectory();
    const QString suffix = ImageExportSettings::suffix(settings.format);
    const QString filter =
        tr("PNG image (*.png);;SVG vector graphics (*.svg);;PDF document (*.pdf)");
    QString selectedFilter =
        settings.format == ImageExportSettings::Format::Png   ? tr("PNG image (*.png)")
        : settings.format == ImageExportSettings::Format::Svg ? tr("SVG vector graphics (*.svg)")
                                                              : tr("PDF document (*.pdf)");
    QString path = QFileDialog::getSaveFileName(
        parent, tr("Export %1").arg(what),
        QDir(directory).absoluteFilePath(baseName + QLatin1Char('.') + suffix), filter,
        &selectedFilter);
    if (path.isEmpty()) {
        return {};
    }
    settings.format = ImageExportSettings::formatFromPath(path, settings.format);
    if (QFileInfo(path).suffix().isEmpty()) {
        path += QLatin1Char('.') + ImageExportSettings::suffix(settings.format);
    }
    store.setValue(kFormatKey, static_cast<int>(settings.format));
    store.setValue(kWidthKey, settings.pixels.width());
    store.setValue(kHeightKey, settings.pixels.height());
    store.setValue(kDpiKey, settings.dpi);
    rememberExportDirectory(path);
    QString error;
    if (!exportFigure(path, settings, paint, &error) ||
        !writeFigureData(path, data, nullptr, &error)) {
        ErrorReporter::report(parent, tr("Could not export the %1").arg(what.toLower()), error);
        return {};
    }
    return path;
}

} // namespace cx::ui
