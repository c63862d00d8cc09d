#pragma once

#include "core/io/corpus_loader.h"

#include <QDialog>

#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace cx::ui {

/// File ▸ Open Corpus…: the path (file or folder) plus format and tokenizer options. The options
/// persist under "topics.load.*" and are reused for drag-and-drop and recent files.
class OpenCorpusDialog : public QDialog {
    Q_OBJECT
public:
    explicit OpenCorpusDialog(QWidget* parent = nullptr);

    QString path() const;
    void setPath(const QString& path);
    cx::CorpusLoadOptions options() const;
    void setOptions(const cx::CorpusLoadOptions& options);

    /// Last used options (format reset to Auto unless `keepFormat`).
    static cx::CorpusLoadOptions savedOptions(bool keepFormat = false);
    static void saveOptions(const cx::CorpusLoadOptions& options);

private:
    void browseFile();
    void browseFolder();
    void validate();

    QLineEdit* m_path = nullptr;
    QComboBox* m_format = nullptr;
    QCheckBox* m_stopWords = nullptr;
    QCheckBox* m_numbers = nullptr;
    QSpinBox* m_maxDocumentPercent = nullptr;
    QSpinBox* m_minDocumentFrequency = nullptr;
    QSpinBox* m_maxVocabulary = nullptr;
    QSpinBox* m_minTokens = nullptr;
    QLabel* m_problem = nullptr;
    QPushButton* m_ok = nullptr;
};

} // namespace cx::ui
