#include "ui/dialogs/aligned_reads_dialog.h"

#include "ui/widgets/form_widgets.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace cx::ui {

namespace {

constexpr int kPathRole = Qt::UserRole + 1;

bool isReadFile(const QString& name) {
    return cx::formatFromFileName(name.toStdString()) != cx::BinarizeFormat::Auto;
}

QComboBox* roleCombo(bool control, QWidget* parent) {
    auto* combo = new QComboBox(parent);
    combo->addItem(QObject::tr("Mark"));
    combo->addItem(QObject::tr("Control"));
    combo->setCurrentIndex(control ? 1 : 0);
    combo->setToolTip(QObject::tr("Control (input DNA): not a mark; the background of the "
                                  "cell's marks that name it"));
    return combo;
}

QLineEdit* pathField(QWidget* parent, const QString& placeholder) {
    auto* edit = new QLineEdit(parent);
    edit->setPlaceholderText(placeholder);
    edit->setClearButtonEnabled(true);
    return edit;
}

} // namespace

AlignedReadsDialog::AlignedReadsDialog(QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("alignedReadsDialog"));
    setWindowTitle(tr("Open Aligned Reads"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(hintLabel(
        tr("Binarize aligned reads (BAM, SAM, CRAM), BED reads or peak files in 200 bp bins with "
           "ChromHMM's rules (as contrast-cli binarize), then open the tracks. Cell and mark come "
           "from names such as CELL_MARK.bam or ENCODE's wgEncode…Histone<Cell><Mark>…; edit "
           "them in the table."),
        this));

    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("readsTable"));
    m_table->setHorizontalHeaderLabels(
        {tr("File"), tr("Role"), tr("Cell"), tr("Mark"), tr("Control")});
    m_table->horizontalHeader()->setSectionResizeMode(FileColumn, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_table->setMinimumSize(640, 200);
    layout->addWidget(m_table, 1);
    auto* fileButtons = new QHBoxLayout;
    auto* addFiles = new QPushButton(tr("Add &Files…"), this);
    auto* addFolder = new QPushButton(tr("Add F&older…"), this);
    auto* remove = new QPushButton(tr("&Remove"), this);
    fileButtons->addWidget(addFiles);
    fileButtons->addWidget(addFolder);
    fileButtons->addWidget(remove);
    fileButtons->addStretch(1);
    layout->addLayout(fileButtons);
    connect(addFiles, &QPushButton::clicked, this, [this] {
        addPaths(QFileDialog::getOpenFileNames(
            this, tr("Add Read Files"), QString(),
            tr("Reads and peaks (*.bam *.sam *.cram *.bed *.bed.gz *.tagAlign *.tagAlign.gz "
               "*.narrowPeak *.narrowPeak.gz *.broadPeak *.broadPeak.gz);;All files (*)")));
    });
    connect(addFolder, &QPushButton::clicked, this, [this] {
        const QString folder = QFileDialog::getExistingDirectory(this, tr("Add a Folder of Reads"));
        if (!folder.isEmpty()) {
            addPaths({folder});
        }
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        const int row = m_table->currentRow();
        if (row >= 0) {
            m_table->removeRow(row);
            refreshControls();
            validate();
        }
    });

    auto* form = new QFormLayout;
    m_chromSizes = pathField(this, tr("chrom.sizes: NAME LENGTH per line"));
    m_outDir = pathField(this, tr("folder for the CELL_CHROM_binary.txt files"));
    const auto withBrowse = [this](QLineEdit* edit, bool folder) {
        auto* row = new QHBoxLayout;
        row->addWidget(edit, 1);
        auto* browse = new QPushButton(tr("Browse…"), this);
        row->addWidget(browse);
        connect(browse, &QPushButton::clicked, this, [this, edit, folder] {
            const QString path =
                folder ? QFileDialog::getExistingDirectory(this, tr("Binarized Files Folder"))
                       : QFileDialog::getOpenFileName(
                             this, tr("Chromosome Sizes"), QString(),
                             tr("Sizes files (*.sizes *.txt);;All files (*)"));
            if (!path.isEmpty()) {
                edit->setText(path);
            }
        });
        return row;
    };
    form->addRow(tr("Chromosome &sizes"), withBrowse(m_chromSizes, false));
    form->addRow(tr("Save binarized files &in"), withBrowse(m_outDir, true));
    layout->addLayout(form);
    connect(m_chromSizes, &QLineEdit::textChanged, this, &AlignedReadsDialog::validate);
    connect(m_outDir, &QLineEdit::textEdited, this, [this] { m_outDirEdited = true; });
    connect(m_outDir, &QLineEdit::textChanged, this, &AlignedReadsDialog::validate);

    // ChromHMM's options and defaults (BinarizeBam / BinarizeBed flags in the tooltips).
    const cx::BinarizeOptions defaults;
    auto* options = new QGridLayout;
    m_format = new QComboBox(this);
    m_format->addItem(tr("From file names"), static_cast<int>(cx::BinarizeFormat::Auto));
    m_format->addItem(tr("BAM/SAM/CRAM"), static_cast<int>(cx::BinarizeFormat::Bam));
    m_format->addItem(tr("BED reads"), static_cast<int>(cx::BinarizeFormat::Bed));
    m_format->addItem(tr("Peaks"), static_cast<int>(cx::BinarizeFormat::Peaks));
    m_binSize = numberSpin(1, 1000000, defaults.binSize, 70, this);
    m_binSize->setToolTip(tr("-b: bases per bin"));
    m_shift = numberSpin(0, 100000, defaults.shift, 70, this);
    m_shift->setToolTip(tr("-n: bases a read moves toward its 3′ end"));
    m_poisson = new QLineEdit(QString::number(defaults.poissonThreshold), this);
    m_poisson->setToolTip(tr("-p: Poisson tail probability of a call (0 < p < 1)"));
    m_fold = new QDoubleSpinBox(this);
    m_fold->setRange(0, 1e6);
    m_fold->setValue(defaults.foldThreshold);
    m_fold->setToolTip(tr("-f: a call also needs this many times the expected count"));
    m_signal = new QDoubleSpinBox(this);
    m_signal->setRange(0, 1e9);
    m_signal->setValue(defaults.signalThreshold);
    m_signal->setToolTip(tr("-g: a call also needs at least this count"));
    m_flank = numberSpin(0, 100000, defaults.flankWidth, 70, this);
    m_flank->setToolTip(tr("-w: control window, bins on each side"));
    m_pseudocount = numberSpin(0, 100000, defaults.pseudocount, 70, this);
    m_pseudocount->setToolTip(tr("-u: added to every control bin"));
    m_strict = new QCheckBox(tr("Strict threshold"), this);
    m_paired = new QCheckBox(tr("Paired-end fragments"), this);
    m_center = new QCheckBox(tr("Centre reads"), this);
    m_gzip = new QCheckBox(tr("Gzip the binarized files"), this);
    int row = 0;
    const auto add = [&](const QString& label, QWidget* widget, int column) {
        options->addWidget(fieldLabel(label, widget, this), row, column * 2);
        options->addWidget(widget, row, column * 2 + 1);
    };
    add(tr("&Format"), m_format, 0);
    add(tr("&Bin size"), m_binSize, 1);
    add(tr("S&hift"), m_shift, 2);
    ++row;
    add(tr("&Poisson p"), m_poisson, 0);
    add(tr("F&old"), m_fold, 1);
    add(tr("Si&gnal"), m_signal, 2);
    ++row;
    add(tr("Fla&nk"), m_flank, 0);
    add(tr("Pseudo&count"), m_pseudocount, 1);
    ++row;
    options->addWidget(m_strict, row, 0, 1, 2);
    options->addWidget(m_paired, row, 2, 1, 2);
    options->addWidget(m_center, row, 4, 1, 2);
    ++row;
    options->addWidget(m_gzip, row, 0, 1, 2);
    layout->addLayout(options);
    connect(m_poisson, &QLineEdit::textChanged, this, &AlignedReadsDialog::validate);

    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("problem"));
    m_problem->setWordWrap(true);
    layout->addWidget(m_problem);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("&Binarize and Open"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    connect(m_table, &QTableWidget::itemChanged, this, &AlignedReadsDialog::validate);
    validate();
}

QStringList AlignedReadsDialog::readFilesIn(const QString& folder) {
    QStringList out;
    const QDir dir(folder);
    for (const QString& name : dir.entryList(QDir::Files, QDir::Name)) {
        if (isReadFile(name)) {
            out << dir.absoluteFilePath(name);
        }
    }
    return out;
}

void AlignedReadsDialog::addPaths(const QStringList& paths) {
    for (const QString& path : paths) {
        if (QFileInfo(path).isDir()) {
            for (const QString& file : readFilesIn(path)) {
                addRow(file);
            }
        } else if (!path.isEmpty()) {
            addRow(QFileInfo(path).absoluteFilePath());
        }
    }
    refreshControls();
    if (!m_outDirEdited && m_outDir->text().isEmpty()) {
        m_outDir->setText(defaultOutDir());
    }
    validate();
}

void AlignedReadsDialog::addRow(const QString& path) {
    for (int r = 0; r < m_table->rowCount(); ++r) {
        if (m_table->item(r, FileColumn)->data(kPathRole).toString() == path) {
            return;
        }
    }
    const cx::CellMarkGuess guess = cx::guessCellMark(path.toStdString());
    const QSignalBlocker block(m_table);
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    auto* file = new QTableWidgetItem(QFileInfo(path).fileName());
    file->setData(kPathRole, path);
    file->setToolTip(path);
    file->setFlags(file->flags() & ~Qt::ItemIsEditable);
    m_table->setItem(row, FileColumn, file);
    auto* role = roleCombo(guess.control, m_table);
    m_table->setCellWidget(row, RoleColumn, role);
    connect(role, &QComboBox::currentIndexChanged, this, [this] {
        refreshControls();
        validate();
    });
    m_table->setItem(row, CellColumn, new QTableWidgetItem(QString::fromStdString(guess.cell)));
    m_table->setItem(row, MarkColumn, new QTableWidgetItem(QString::fromStdString(guess.mark)));
    auto* control = new QComboBox(m_table);
    control->setToolTip(tr("The control (input DNA) of this file's cell and mark"));
    // The user's pick survives refreshes (which block the signal).
    connect(control, &QComboBox::currentIndexChanged, control,
            [control] { control->setProperty("chosen", control->currentData()); });
    m_table->setCellWidget(row, ControlColumn, control);
}

void AlignedReadsDialog::refreshControls() {
    // Every control file is offered to every mark row; a row whose cell has a control (by the
    // guess, or the first of several) gets it unless the user picked another.
    QStringList controls;
    QMap<QString, QString> controlOfCell;
    for (int r = 0; r < m_table->rowCount(); ++r) {
        if (static_cast<QComboBox*>(m_table->cellWidget(r, RoleColumn))->currentIndex() == 1) {
            const QString path = m_table->item(r, FileColumn)->data(kPathRole).toString();
            controls << path;
            const QString cell = m_table->item(r, CellColumn)->text().trimmed();
            if (!controlOfCell.contains(cell)) {
                controlOfCell.insert(cell, path);
            }
        }
    }
    for (int r = 0; r < m_table->rowCount(); ++r) {
        auto* combo = static_cast<QComboBox*>(m_table->cellWidget(r, ControlColumn));
        const bool mark =
            static_cast<QComboBox*>(m_table->cellWidget(r, RoleColumn))->currentIndex() == 0;
        const QString previous = combo->property("chosen").toString();
        const QSignalBlocker block(combo);
        combo->clear();
        combo->setEnabled(mark);
        if (!mark) {
            continue;
        }
        combo->addItem(tr("(none)"), QString());
        for (const QString& path : controls) {
            combo->addItem(QFileInfo(path).fileName(), path);
        }
        const QString cell = m_table->item(r, CellColumn)->text().trimmed();
        const QString wanted =
            controls.contains(previous) ? previous : controlOfCell.value(cell, QString());
        combo->setCurrentIndex(std::max(0, combo->findData(wanted)));
    }
}

void AlignedReadsDialog::setChromSizes(const QString& path) {
    m_chromSizes->setText(path);
}

void AlignedReadsDialog::setOutDir(const QString& path) {
    m_outDir->setText(path);
    m_outDirEdited = true;
}

QString AlignedReadsDialog::defaultOutDir() const {
    if (m_table->rowCount() == 0) {
        return {};
    }
    const QFileInfo first(m_table->item(0, FileColumn)->data(kPathRole).toString());
    return first.absoluteDir().absoluteFilePath(QStringLiteral("binarized"));
}

void AlignedReadsDialog::setRequest(const ReadsBinarization& reads) {
    m_table->setRowCount(0);
    QStringList paths;
    for (const auto& entry : reads.entries) {
        paths << entry.file;
        if (!entry.control.isEmpty()) {
            paths << entry.control;
        }
    }
    addPaths(paths);
    for (int r = 0; r < m_table->rowCount(); ++r) {
        const QString path = m_table->item(r, FileColumn)->data(kPathRole).toString();
        for (const auto& entry : reads.entries) {
            if (entry.file == path) {
                m_table->item(r, CellColumn)->setText(entry.cell);
                m_table->item(r, MarkColumn)->setText(entry.mark);
                static_cast<QComboBox*>(m_table->cellWidget(r, RoleColumn))->setCurrentIndex(0);
            }
        }
    }
    refreshControls();
    for (int r = 0; r < m_table->rowCount(); ++r) {
        const QString path = m_table->item(r, FileColumn)->data(kPathRole).toString();
        for (const auto& entry : reads.entries) {
            auto* combo = static_cast<QComboBox*>(m_table->cellWidget(r, ControlColumn));
            if (entry.file == path && combo->isEnabled()) {
                combo->setCurrentIndex(std::max(0, combo->findData(entry.control)));
            }
        }
    }
    m_chromSizes->setText(reads.chromSizes);
    setOutDir(reads.outDir);
    const cx::BinarizeOptions& o = reads.options;
    m_format->setCurrentIndex(std::max(0, m_format->findData(static_cast<int>(o.format))));
    m_binSize->setValue(o.binSize);
    m_shift->setValue(o.shift);
    m_poisson->setText(QString::number(o.poissonThreshold));
    m_fold->setValue(o.foldThreshold);
    m_signal->setValue(o.signalThreshold);
    m_flank->setValue(o.flankWidth);
    m_pseudocount->setValue(o.pseudocount);
    m_strict->setChecked(o.strictThreshold);
    m_paired->setChecked(o.paired);
    m_center->setChecked(o.center);
    m_gzip->setChecked(o.gzip);
    validate();
}

ReadsBinarization AlignedReadsDialog::request() const {
    ReadsBinarization reads;
    for (int r = 0; r < m_table->rowCount(); ++r) {
        if (static_cast<QComboBox*>(m_table->cellWidget(r, RoleColumn))->currentIndex() != 0) {
            continue;
        }
        ReadsBinarization::Entry entry;
        entry.file = m_table->item(r, FileColumn)->data(kPathRole).toString();
        entry.cell = m_table->item(r, CellColumn)->text().trimmed();
        entry.mark = m_table->item(r, MarkColumn)->text().trimmed();
        entry.control = static_cast<QComboBox*>(m_table->cellWidget(r, ControlColumn))
                            ->currentData()
                            .toString();
        reads.entries << entry;
    }
    reads.chromSizes = m_chromSizes->text().trimmed();
    reads.outDir = m_outDir->text().trimmed();
    cx::BinarizeOptions& o = reads.options;
    o.format = static_cast<cx::BinarizeFormat>(m_format->currentData().toInt());
    o.binSize = m_binSize->value();
    o.shift = m_shift->value();
    o.poissonThreshold = m_poisson->text().toDouble();
    o.foldThreshold = m_fold->value();
    o.signalThreshold = m_signal->value();
    o.flankWidth = m_flank->value();
    o.pseudocount = m_pseudocount->value();
    o.strictThreshold = m_strict->isChecked();
    o.paired = m_paired->isChecked();
    o.center = m_center->isChecked();
    o.gzip = m_gzip->isChecked();
    return reads;
}

QString AlignedReadsDialog::problem() const {
    const ReadsBinarization reads = request();
    if (reads.entries.isEmpty()) {
        return tr("Add read files (at least one mark, not only controls).");
    }
    for (const auto& entry : reads.entries) {
        if (entry.cell.isEmpty() || entry.mark.isEmpty()) {
            return tr("%1: give its cell and mark.").arg(QFileInfo(entry.file).fileName());
        }
    }
    if (reads.chromSizes.isEmpty() || !QFileInfo(reads.chromSizes).isFile()) {
        return tr("Choose the chromosome sizes file (NAME LENGTH per line).");
    }
    if (reads.outDir.isEmpty()) {
        return tr("Choose the folder for the binarized files.");
    }
    bool ok = false;
    const double p = m_poisson->text().toDouble(&ok);
    if (!ok || !(p > 0 && p < 1)) {
        return tr("The Poisson threshold must be a number between 0 and 1.");
    }
    return {};
}

void AlignedReadsDialog::validate() {
    const QString text = problem();
    m_problem->setText(text);
    m_ok->setEnabled(text.isEmpty());
}

} // namespace cx::ui
