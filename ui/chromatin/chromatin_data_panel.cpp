#include "ui/chromatin/chromatin_data_panel.h"

#include "ui/chromatin/annotation_list_model.h"
#include "ui/widgets/form_widgets.h"
#include "ui/widgets/plural.h"

#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QStyle>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace cx::ui {

namespace {

QString count(std::int64_t n) {
    return QLocale().toString(static_cast<qint64>(n));
}

QString percent(std::int64_t part, std::int64_t whole) {
    return whole > 0 ? QLocale().toString(
                           100.0 * static_cast<double>(part) / static_cast<double>(whole), 'f', 1)
                     : QStringLiteral("0");
}

} // namespace

ChromatinDataPanel::ChromatinDataPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("dataPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 10, 8, 10);
    layout->setSpacing(6);

    auto* tracksHeader = new QHBoxLayout;
    tracksHeader->addWidget(sectionTitle(tr("TRACKS"), this));
    tracksHeader->addStretch(1);
    m_openTracks =
        new QPushButton(style()->standardIcon(QStyle::SP_DirOpenIcon), tr("Open…"), this);
    m_openTracks->setToolTip(tr("Open ChromHMM binarized files (Ctrl+O): one per cell type and "
                                "chromosome, plain or .gz; several at once"));
    tracksHeader->addWidget(m_openTracks);
    layout->addLayout(tracksHeader);
    m_trackName = new QLabel(tr("No tracks loaded"), this);
    m_trackName->setObjectName(QStringLiteral("corpusName"));
    m_trackName->setWordWrap(true);
    layout->addWidget(m_trackName);
    m_trackDetails = hintLabel(tr("Open ChromHMM binarized files (CELL<TAB>CHR header, mark "
                                  "names, one row of 0/1 per 200 bp bin), e.g. the GM12878 and "
                                  "K562 chr11 tracks."),
                               this);
    m_trackDetails->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_trackDetails);

    layout->addSpacing(8);
    auto* annotationHeader = new QHBoxLayout;
    annotationHeader->addWidget(sectionTitle(tr("ANNOTATIONS"), this));
    annotationHeader->addStretch(1);
    m_remove = new QToolButton(this);
    m_remove->setIcon(style()->standardIcon(QStyle::SP_DialogDiscardButton));
    m_remove->setToolTip(tr("Remove the selected annotation (Delete)"));
    m_remove->setAutoRaise(true);
    annotationHeader->addWidget(m_remove);
    m_addAnnotations =
        new QPushButton(style()->standardIcon(QStyle::SP_FileIcon), tr("Add BED…"), this);
    m_addAnnotations->setToolTip(tr("Add region files (BED, 3+ columns, plain or .gz): genes, "
                                    "TSS ± 2 kb, exons, CpG islands, …"));
    annotationHeader->addWidget(m_addAnnotations);
    layout->addLayout(annotationHeader);

    m_annotations = new QTableView(this);
    m_annotations->setObjectName(QStringLiteral("annotationTable"));
    m_annotations->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_annotations->setSelectionMode(QAbstractItemView::SingleSelection);
    m_annotations->verticalHeader()->hide();
    m_annotations->verticalHeader()->setDefaultSectionSize(22);
    m_annotations->setShowGrid(false);
    m_annotations->setAlternatingRowColors(true);
    m_annotations->setWordWrap(false);
    m_annotations->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_annotations->installEventFilter(this);
    layout->addWidget(m_annotations, 1);

    m_hint = hintLabel(tr("Tick <b>Fg</b> on the regions to contrast (several combine, e.g. "
                          "RefSeqGene + RefSeqTSS2kb); the background is everything else "
                          "unless you tick <b>Bg</b>. Nothing ticked: the whole genome, γ has "
                          "no effect."),
                       this);
    m_hint->setTextFormat(Qt::RichText);
    layout->addWidget(m_hint);
    m_counts = new QLabel(this);
    m_counts->setObjectName(QStringLiteral("counts"));
    m_counts->setWordWrap(true);
    m_counts->setTextFormat(Qt::RichText);
    layout->addWidget(m_counts);
    m_warnings = hintLabel(QString(), this);
    m_warnings->setProperty("warning", true);
    m_warnings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_warnings->hide();
    layout->addWidget(m_warnings);

    connect(m_openTracks, &QPushButton::clicked, this, &ChromatinDataPanel::openTracksRequested);
    connect(m_addAnnotations, &QPushButton::clicked, this,
            &ChromatinDataPanel::addAnnotationsRequested);
    connect(m_remove, &QToolButton::clicked, this, &ChromatinDataPanel::removeSelected);
}

void ChromatinDataPanel::setAnnotationModel(AnnotationListModel* model) {
    m_model = model;
    m_annotations->setModel(model);
    QHeaderView* header = m_annotations->horizontalHeader();
    header->setSectionResizeMode(AnnotationListModel::NameColumn, QHeaderView::Stretch);
    for (int column = AnnotationListModel::ForegroundColumn;
         column < AnnotationListModel::ColumnCount; ++column) {
        header->setSectionResizeMode(column, QHeaderView::Fixed);
        header->resizeSection(column, column == AnnotationListModel::LaneColumn ||
                                              column == AnnotationListModel::EnrichmentColumn
                                          ? 40
                                          : 30);
    }
    header->setHighlightSections(false);
}

void ChromatinDataPanel::setData(const ChromatinDataHandle& handle) {
    if (!handle.data) {
        m_trackName->setText(tr("No tracks loaded"));
        return;
    }
    const cx::ChromatinData& data = *handle.data;
    QStringList cells;
    QStringList chroms;
    for (const auto& track : data.tracks) {
        const QString cell = QString::fromStdString(track.cell);
        const QString chrom = QString::fromStdString(track.chrom);
        if (!cells.contains(cell)) {
            cells << cell;
        }
        if (!chroms.contains(chrom)) {
            chroms << chrom;
        }
    }
    m_trackName->setText(tr("%1 · %2").arg(cells.join(QStringLiteral(", ")),
                                           chroms.size() > 3
                                               ? tr("%1 chromosomes").arg(chroms.size())
                                               : chroms.join(QStringLiteral(", "))));
    QStringList files;
    for (const QString& path : handle.paths) {
        files << QFileInfo(path).fileName();
    }
    m_trackName->setToolTip(handle.paths.join(QLatin1Char('\n')));
    m_trackDetails->setText(
        tr("%1 · %2 bins of %3 bp · %4 marks · %5 distinct patterns · read in %6 s")
            .arg(countOf(static_cast<qint64>(data.tracks.size()), tr("track"), tr("tracks")))
            .arg(count(data.totalBins()), QString::number(data.binSize))
            .arg(data.numMarks())
            .arg(data.numPatterns())
            .arg(handle.loadMs / 1000.0, 0, 'f', 1));
    m_trackDetails->setToolTip(files.join(QLatin1Char('\n')));
    m_counts->clear();
    m_warnings->hide();
}

void ChromatinDataPanel::setMomentsReport(const MomentsState* moments) {
    if (!moments) {
        m_counts->clear();
        m_warnings->hide();
        return;
    }
    const std::int64_t total = moments->totalBins;
    if (moments->choice.isWholeGenome()) {
        m_counts->setText(tr("<b>Whole genome</b> as foreground: %1 bins · no background, so γ "
                             "has no effect")
                              .arg(count(total)));
    } else {
        m_counts->setText(
            tr("<b>%1</b> foreground bins (%2 %) · <b>%3</b> background (%4 %)")
                .arg(count(moments->foregroundBins), percent(moments->foregroundBins, total),
                     count(moments->backgroundBins), percent(moments->backgroundBins, total)));
    }
    m_counts->setToolTip(tr("Foreground triples %1 · background triples %2 · classified in "
                            "%3 ms, moments in %4 ms")
                             .arg(count(moments->moments->foreground.numTriples),
                                  count(moments->moments->background.numTriples))
                             .arg(moments->classifyMs, 0, 'f', 0)
                             .arg(moments->momentsMs, 0, 'f', 0));
    m_warnings->setText(moments->warnings.join(QLatin1Char('\n')));
    m_warnings->setToolTip(moments->warnings.join(QLatin1Char('\n')));
    m_warnings->setVisible(!moments->warnings.isEmpty());
}

void ChromatinDataPanel::setBusy(bool busy) {
    if (busy) {
        m_counts->setText(tr("<i>computing…</i>"));
    }
}

void ChromatinDataPanel::removeSelected() {
    if (!m_model) {
        return;
    }
    const QModelIndex current = m_annotations->currentIndex();
    if (current.isValid()) {
        emit removeAnnotationRequested(
            m_model->data(current, AnnotationListModel::PathRole).toString());
    }
}

bool ChromatinDataPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_annotations && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Delete || key->key() == Qt::Key_Backspace) {
            removeSelected();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace cx::ui
