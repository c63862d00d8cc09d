#pragma once

#include "ui/chromatin/chromatin_types.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;
class QToolButton;

namespace cx::ui {

class AnnotationListModel;

/// Left panel of the Chromatin workspace: the loaded tracks (cells × chromosomes, bins, marks),
/// the annotation list (BED files with Foreground / Background / Lane / Enrichment check boxes,
/// combinable) and the load report of the current choice (foreground/background bins, warnings
/// such as contigs no track covers).
class ChromatinDataPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChromatinDataPanel(QWidget* parent = nullptr);

    void setAnnotationModel(AnnotationListModel* model);
    QTableView* annotationView() const { return m_annotations; }
    void setData(const ChromatinDataHandle& data);
    /// The bin counts and warnings of the moments in use (null: none yet).
    void setMomentsReport(const MomentsState* moments);
    /// A moment pass or load is running (disables nothing; shows "computing…").
    void setBusy(bool busy);

signals:
    void openTracksRequested();
    void addAnnotationsRequested();
    void removeAnnotationRequested(const QString& path);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void removeSelected();

    QPushButton* m_openTracks = nullptr;
    QLabel* m_trackName = nullptr;
    QLabel* m_trackDetails = nullptr;
    QPushButton* m_addAnnotations = nullptr;
    QToolButton* m_remove = nullptr;
    QTableView* m_annotations = nullptr;
    QLabel* m_counts = nullptr;
    QLabel* m_warnings = nullptr;
    QLabel* m_hint = nullptr;
    AnnotationListModel* m_model = nullptr;
};

} // namespace cx::ui
